package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.DistributedShellAm;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An unmanaged AM: the RM launches no AM container; the client reads the attempt's AM token and runs
 * the distributed-shell AM as its own process, whose workers run on a NodeManager.
 */
class UnmanagedAmIT {
  private RmMember rm;
  private NodeManager nm;
  private Process am;
  private String base;

  @BeforeEach
  void start(@TempDir Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    nm = ItNodes.start(rm, dir.resolve("nm"));
    base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);
  }

  @AfterEach
  void stop() {
    if (am != null) am.destroyForcibly();
    if (nm != null) nm.close();
    if (rm != null) rm.close();
  }

  @Test
  void theClientRunsTheAmWithTheTokenTheRmGaveItAndTheApplicationSucceeds(@TempDir Path dir) throws Exception {
    String id = submitUnmanaged();
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("unmanagedApplication").asBoolean()).isTrue();
    String attempt = Ids.attemptId(id, 1);
    Http.Reply token = Http.get(base + "/apps/" + id + "/amrmtoken?user.name=" + Http.DEFAULT_USER);
    assertThat(token.status()).as(token.body()).isEqualTo(200);
    assertThat(token.json().path("amRMToken").path("appAttemptId").asText()).isEqualTo(attempt);

    Path marks = Files.createDirectories(dir.resolve("marks"));
    // YARN's unmanaged AM launcher names the AM's container as container 0 of its attempt.
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), DistributedShellAm.class.getName(),
        "--shell", "touch " + marks + "/$CONTAINER_ID", "--containers", "2", "--memory", "256", "--vcores", "1")
        .redirectErrorStream(true).redirectOutput(dir.resolve("am.log").toFile());
    pb.environment().put(ContainerEnv.RM_ADDRESSES, rm.url());
    pb.environment().put(ContainerEnv.AM_TOKEN, token.json().path("amRMToken").path("token").asText());
    pb.environment().put(ContainerEnv.CONTAINER_ID, Ids.containerId(attempt, 0, 0));
    am = pb.start();

    assertThat(am.waitFor(120, TimeUnit.SECONDS)).as("the AM process ends").isTrue();
    app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("state").asText()).as(Files.readString(dir.resolve("am.log"))).isEqualTo("FINISHED");
    assertThat(app.path("finalStatus").asText()).isEqualTo("SUCCEEDED");
    assertThat(am.exitValue()).isZero();
    // Both workers ran on the NodeManager, as containers of the attempt; the attempt never had an AM container.
    try (var ran = Files.list(marks)) {
      List<String> workers = ran.map(p -> p.getFileName().toString()).toList();
      assertThat(workers).hasSize(2).allMatch(w -> Ids.attemptIdOfContainer(w).equals(attempt));
    }
    JsonNode attempts = Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt");
    assertThat(attempts.size()).isEqualTo(1);
    assertThat(attempts.get(0).path("containerId").asText("")).isEmpty();
  }

  @Test
  void anotherUserCannotReadTheAmToken() throws Exception {
    String id = submitUnmanaged();
    Http.Reply other = Http.get(base + "/apps/" + id + "/amrmtoken?user.name=mallory");
    assertThat(other.status()).as(other.body()).isEqualTo(403);
    assertThat(other.body()).doesNotContain("\"token\"");
    Http.Reply owner = Http.get(base + "/apps/" + id + "/amrmtoken?user.name=" + Http.DEFAULT_USER);
    assertThat(owner.status()).as(owner.body()).isEqualTo(200);
  }

  private String submitUnmanaged() throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("unmanaged-AM", true);
    body.put("resource", new Resource(512, 1));
    Http.Reply submitted = Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    Http.await(Duration.ofSeconds(30), "the attempt to wait for its AM", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("ACCEPTED"));
    return id;
  }
}
