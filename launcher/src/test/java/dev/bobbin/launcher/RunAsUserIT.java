package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.ContainerExecutorSettings;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.server.NodeManager;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An RM and a NodeManager running as root with {@code bobbin.nm.container-executor = linux}: an
 * application submitted with {@code ?user.name=U} runs its AM as U, and one submitted as root fails
 * with container-executor's diagnostic. Needs root (to create the user and to switch to it).
 */
class RunAsUserIT {
  @TempDir Path dir;
  private String user;
  private RmMember rm;
  private NodeManager nm;
  private String base;

  @BeforeEach
  void start() throws Exception {
    assumeTrue((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0,
        "running containers as other users needs the tests to run as root");
    user = "bobbin-" + UUID.randomUUID().toString().substring(0, 8);
    run("useradd", "--no-create-home", "--user-group", "--shell", "/bin/sh", user);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    Config nmConfig = ConfigFactory.parseMap(Map.of(
        "bobbin.nm.rm-addresses", List.of(rm.url()),
        "bobbin.nm.http-port", RestApiIT.freePort(),
        "bobbin.nm.memory-mb", 4096,
        "bobbin.nm.vcores", 4,
        "bobbin.nm.work-dir", dir.resolve("nm").toString(),
        "bobbin.nm.node-credential-file", rm.nodeCredentialFile().toString(),
        "bobbin.nm.container-executor", "linux")).withFallback(ConfigFactory.load());
    nm = NodeManager.start(NmSettings.from(nmConfig), ContainerExecutorSettings.from(nmConfig));
    base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);
  }

  @AfterEach
  void stop() throws Exception {
    if (nm != null) nm.close();
    if (rm != null) rm.close();
    if (user != null) run("userdel", user);
  }

  @Test
  void anApplicationsContainersRunAsTheUserWhoSubmittedIt() throws Exception {
    String id = submit(user, "echo $$ > <LOG_DIR>/pid && id -un > <LOG_DIR>/who && exec sleep 600");
    String nmBase = "http://" + nm.httpAddress() + "/ws/v1/node/containers";
    Http.await(Duration.ofSeconds(30), "the AM to write its pid", () -> {
      JsonNode c = amContainer(nmBase);
      if (c == null) return false;
      Http.Reply pid = log(nmBase, c.path("id").asText(), "pid");
      return pid.status() == 200 && pid.body().endsWith("\n");
    });
    String container = amContainer(nmBase).path("id").asText();
    assertThat(amContainer(nmBase).path("user").asText()).isEqualTo(user);
    assertThat(log(nmBase, container, "who").body()).isEqualTo(user + "\n");
    long pid = Long.parseLong(log(nmBase, container, "pid").body().trim());
    String uid = run("id", "-u", user).trim();
    assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "status")))
        .containsPattern("(?m)^Uid:\\s+" + uid + "\\s+" + uid + "\\s+" + uid + "\\s+" + uid + "$");

    assertThat(Http.put(base + "/apps/" + id + "/state?user.name=" + user, "{\"state\":\"KILLED\"}").status())
        .isIn(200, 202);
    Http.await(Duration.ofSeconds(30), "the AM process to be gone", () -> !Files.exists(Path.of("/proc", Long.toString(pid))));
  }

  @Test
  void anApplicationSubmittedAsRootFailsWithContainerExecutorsDiagnostic() throws Exception {
    String id = submit("root", "true");
    Http.await(Duration.ofSeconds(60), "the application to fail", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("FAILED"));
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("diagnostics").asText())
        .contains("exitCode: -1000")
        .contains("Application " + id + " initialization failed (exitCode=255) with output: Running as root is not allowed");
  }

  private String submit(String who, String command) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=" + who, "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps?user.name=" + who, """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"%s"}},
         "resource":{"memory":1024,"vCores":1},"max-app-attempts":1}""".formatted(id, command));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    return id;
  }

  /** A container's log file, which the NodeManager (root) reads from the user's private log dir. */
  private static Http.Reply log(String nmContainers, String container, String file) throws Exception {
    return Http.send(HttpRequest.newBuilder(URI.create(nmContainers + "/" + container + "/logs/" + file))
        .header("Accept", "text/plain").GET());
  }

  private static JsonNode amContainer(String nmContainers) throws Exception {
    for (JsonNode c : Http.get(nmContainers).json().path("containers").path("container")) return c;
    return null;
  }

  private static String run(String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0).as(String.join(" ", cmd) + ": " + out).isTrue();
    return out;
  }
}
