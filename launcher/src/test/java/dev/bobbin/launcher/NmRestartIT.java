package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work-preserving NodeManager restart with real processes: the NodeManager, a process of its own
 * with recovery on, is killed with SIGKILL while an application's three tasks run; its containers
 * run on. Restarted on the same work directory and port, it takes them back: the tasks keep their
 * processes, are reported running, end normally and the application succeeds, none killed or run
 * twice. A container that exited while no NodeManager ran is reported with its own exit code. The
 * PUBLIC and PRIVATE resources it localized before the kill serve the restarted one's containers.
 */
class NmRestartIT {
  private static final int TASKS = 3;
  private RmMember rm;
  private Process nm;
  private final List<Long> containerPids = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    if (nm != null && nm.isAlive()) {
      nm.destroy();
      nm.waitFor();
    }
    containerPids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    if (rm != null) rm.close();
  }

  @Test
  void runningContainersSurviveAKillNineOfTheirNodeManagerAndFinishNormally(@TempDir Path dir) throws Exception {
    String base = startRm(dir);
    int nmPort = RestApiIT.freePort();
    List<String> nmCommand = nmCommand(dir, nmPort, "bobbin.nm.recovery { enabled = true, process-check-interval = 200ms }");
    Path nmLog = dir.resolve("nm.log");
    nm = startNm(nmCommand, nmLog, base);

    // Each task writes its process id, then runs until the test lets it end.
    Path runs = Files.createDirectories(dir.resolve("runs"));
    Path release = dir.resolve("release");
    String task = "echo $$ >> " + runs + "/task-$DISTRIBUTED_SHELL_ID; until [ -e " + release + " ]; do sleep 0.2; done";
    String tasks = submitShellApp(base, task);
    // An AM that exits 3 when told to, without ever registering.
    Path exitNow = dir.resolve("exit-now");
    Path exiterPid = dir.resolve("exiter.pid");
    String exiter = submit(base, "echo $$ > " + exiterPid + "; until [ -e " + exitNow + " ]; do sleep 0.2; done; exit 3");

    Http.await(Duration.ofSeconds(40), "the tasks and the exiting AM to run", () ->
        KeepContainersIT.taskPids(runs).size() == TASKS && Files.exists(exiterPid));
    List<Long> taskPids = KeepContainersIT.taskPids(runs);
    long exiterProcess = Long.parseLong(Files.readString(exiterPid).trim());
    containerPids.addAll(taskPids);
    containerPids.add(exiterProcess);

    nm.destroyForcibly().waitFor();
    assertThat(nm.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    assertThat(taskPids).as("the tasks run on without their NodeManager").allMatch(NmRestartIT::alive);
    Files.createFile(exitNow);
    Http.await(Duration.ofSeconds(10), "the AM to exit while no NodeManager runs", () -> !alive(exiterProcess));

    nm = startNm(nmCommand, nmLog, base);
    String nodeContainers = "http://127.0.0.1:" + nmPort + "/ws/v1/node/containers";
    Http.await(Duration.ofSeconds(20), "the exit while the NodeManager was down to reach the RM", () ->
        attempt(base, exiter).path("exitStatus").asInt() == 3);
    assertThat(Http.get(base + "/apps/" + exiter).json().path("app").path("state").asText()).isEqualTo("FAILED");
    assertThat(running(nodeContainers, tasks)).as("the AM and the tasks, taken back").isEqualTo(TASKS + 1);
    JsonNode live = Http.get(base + "/apps/" + tasks + "/appattempts/" + attempt(base, tasks).path("appAttemptId")
        .asText() + "/containers").json().path("containers").path("container");
    assertThat(live).as("the RM's view: all still running").hasSize(TASKS + 1)
        .allMatch(c -> c.path("containerState").asText().equals("RUNNING"));
    assertThat(taskPids).as("not killed by the restart").allMatch(NmRestartIT::alive);

    Files.createFile(release);
    Http.await(Duration.ofSeconds(30), "the application to finish", () ->
        Http.get(base + "/apps/" + tasks).json().path("app").path("state").asText().equals("FINISHED"));
    JsonNode app = Http.get(base + "/apps/" + tasks).json().path("app");
    assertThat(app.path("finalStatus").asText()).as(app.toString()).isEqualTo("SUCCEEDED");
    assertThat(KeepContainersIT.taskPids(runs)).as("each task ran once, in its first process").containsExactlyElementsOf(taskPids);
    Http.await(Duration.ofSeconds(20), "the AM process to exit", () -> running(nodeContainers, tasks) == 0);
    List<JsonNode> ended = containers(nodeContainers, tasks);
    assertThat(ended).hasSize(TASKS + 1);
    for (JsonNode c : ended) assertThat(c.path("exitCode").asInt()).as("never killed: " + c).isZero();
  }

  @Test
  void resourcesCachedBeforeAKillNineAreUsedAgainByTheRestartedNodeManager(@TempDir Path dir) throws Exception {
    String base = startRm(dir);
    List<String> nmCommand = nmCommand(dir, RestApiIT.freePort(), "bobbin.nm.recovery.enabled = true");
    Path nmLog = dir.resolve("nm.log");
    nm = startNm(nmCommand, nmLog, base);

    // A PUBLIC source must be readable by every user.
    Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path shared = Files.writeString(dir.resolve("shared.txt"), "for everyone\n");
    Path own = Files.writeString(dir.resolve("own.txt"), "for one user\n");
    Map<String, Object> resources = Map.of("entry", List.of(
        Map.of("key", "shared.txt", "value", resource(shared, "PUBLIC")),
        Map.of("key", "own.txt", "value", resource(own, "PRIVATE"))));
    Path before = dir.resolve("before.out");
    submit(base, "cat shared.txt own.txt > " + before, resources);
    Http.await(Duration.ofSeconds(40), "the first application's AM to read its resources", () ->
        Files.exists(before) && Files.readString(before).equals("for everyone\nfor one user\n"));

    nm.destroyForcibly().waitFor();
    // Gone at their sources: only the copies cached before the kill can serve them now.
    Files.delete(shared);
    Files.delete(own);
    nm = startNm(nmCommand, nmLog, base);
    // The RM may still list the killed agent: wait for the new one's own registration.
    Http.await(Duration.ofSeconds(30), "the restarted NodeManager to register", () -> registrations(nmLog) == 2);
    Path after = dir.resolve("after.out");
    String second = submit(base, "cat shared.txt own.txt > " + after, resources);
    try {
      Http.await(Duration.ofSeconds(40), "the second application's AM to read the cached copies", () ->
          Files.exists(after) && Files.readString(after).equals("for everyone\nfor one user\n"));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Http.get(base + "/apps/" + second).body() + "\n"
          + Files.readString(nmLog), e);
    }
    assertThat(Files.readString(nmLog)).contains("2 copies used again");
  }

  /** Starts the RM member; its cluster API's base URL. */
  private String startRm(Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    return rm.url() + "/ws/v1/cluster";
  }

  /** A NodeManager process's command, on {@code port}, with {@code config} over the defaults. */
  private List<String> nmCommand(Path dir, int port, String config) throws Exception {
    Path nmConfig = Files.writeString(dir.resolve("nm.conf"), config + "\n");
    return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(), "nm",
        "--rm", rm.url(), "--http-port", String.valueOf(port), "--memory", "8192", "--vcores", "8",
        "--work-dir", dir.resolve("nm").toString(), "--node-credential", rm.nodeCredentialFile().toString(),
        "--config", nmConfig.toString());
  }

  private static Map<String, Object> resource(Path file, String visibility) throws Exception {
    return Map.of("resource", file.toUri().toString(), "type", "FILE", "visibility", visibility,
        "size", Files.size(file), "timestamp", Files.getLastModifiedTime(file).toMillis());
  }

  /** @param localResources the AM's, in YARN's REST form; null for none */
  private static String submit(String base, String command, Map<String, Object> localResources) throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("max-app-attempts", 1);
    body.put("resource", new Resource(256, 1));
    Map<String, Object> spec = new LinkedHashMap<>(Map.of("commands", Map.of("command", command)));
    if (localResources != null) spec.put("local-resources", localResources);
    body.put("am-container-spec", spec);
    Http.Reply r = Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private Process startNm(List<String> command, Path log, String base) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    try {
      Http.await(Duration.ofSeconds(30), "the NodeManager to register", () -> {
        if (!p.isAlive()) throw new IllegalStateException("the NodeManager exited with " + p.exitValue());
        return registrations(log) == starts(log)
            && Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Files.readString(log), e);
    }
    return p;
  }

  /** How many NodeManagers have started on the log, and how many registrations they logged. */
  private static long starts(Path log) throws Exception {
    return Files.readAllLines(log).stream().filter(l -> l.contains(" started: capability ")).count();
  }

  private static long registrations(Path log) throws Exception {
    return Files.readAllLines(log).stream().filter(l -> l.contains(" registered with RM ")).count();
  }

  private static String submitShellApp(String base, String shell) throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("resource", new Resource(512, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command", ShellAmSpec.commands(
        System.getProperty("java.class.path"), shell, TASKS, new Resource(256, 1), 0))));
    Http.Reply r = Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private static String submit(String base, String command) throws Exception {
    return submit(base, command, null);
  }

  private static JsonNode attempt(String base, String appId) throws Exception {
    return Http.get(base + "/apps/" + appId + "/appattempts").json().path("appAttempts").path("appAttempt").get(0);
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  private static long running(String nodeContainers, String appId) throws Exception {
    return containers(nodeContainers, appId).stream().filter(c -> c.path("state").asText().equals("RUNNING")).count();
  }

  private static List<JsonNode> containers(String nodeContainers, String appId) throws Exception {
    String key = appId.substring("application_".length());
    List<JsonNode> out = new ArrayList<>();
    for (JsonNode c : Http.get(nodeContainers).json().path("containers").path("container")) {
      if (c.path("id").asText().contains(key)) out.add(c);
    }
    return out;
  }
}
