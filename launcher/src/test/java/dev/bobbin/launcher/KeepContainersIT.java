package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.config.NodeCredential;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long-running distributed-shell application that keeps its containers across attempts: its AM
 * process is killed with SIGKILL twice while its tasks run, and each restarted AM takes the running
 * tasks over instead of running them again. The second time the RM member, a process of its own,
 * is killed with SIGKILL too, between the AM's death and the next attempt's registration, and
 * restarted on the same data directory and ports: the kept tasks survive that as well.
 */
class KeepContainersIT {
  private static final int TASKS = 2;
  private Process rm;
  private NodeManager nm;
  private int http;
  private int cluster;
  private Path data;
  private Path config;
  private Path log;

  @AfterEach
  void stop() {
    if (nm != null) nm.close();
    if (rm != null) rm.destroyForcibly();
  }

  @Test
  void theTasksOutliveTwoKilledAmsAndAKilledRmRunOnceAndTheApplicationSucceeds(@TempDir Path dir) throws Exception {
    http = RestApiIT.freePort();
    cluster = RestApiIT.freePort();
    data = dir.resolve("rm");
    log = dir.resolve("rm.log");
    config = Files.writeString(dir.resolve("rm.conf"), "bobbin.rm.am-max-attempts = 3\n");
    String base = "http://127.0.0.1:" + http + "/ws/v1/cluster";
    startRm(base);
    // It reaches the RM at the same address after the restart, with the credential the RM keeps in its data directory.
    nm = ItNodes.start("http://127.0.0.1:" + http, data.resolve(NodeCredential.FILE_NAME), dir.resolve("nm"));
    Http.await(Duration.ofSeconds(30), "the node", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);

    // Each run of a task adds its process id to its own file; the task then runs on, through the AMs'
    // and the RM's deaths, until the test lets it end.
    Path runs = Files.createDirectories(dir.resolve("runs"));
    Path release = dir.resolve("release");
    String shell = "echo $$ >> " + runs + "/task-$DISTRIBUTED_SHELL_ID; "
        + "until [ -e " + release + " ]; do sleep 0.5; done";
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("max-app-attempts", 3);
    body.put("keep-containers-across-application-attempts", true);
    body.put("resource", new Resource(512, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command", ShellAmSpec.commands(
        System.getProperty("java.class.path"), shell, TASKS, new Resource(256, 1), 0, true))));
    Http.Reply submitted = Http.post(base + "/apps", WireJson.mapper().writeValueAsString(body));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);

    Http.await(Duration.ofSeconds(90), "both tasks to run", () -> taskPids(runs).size() == TASKS);
    List<Long> pids = taskPids(runs);
    List<String> workers = workerContainers(base, id, 1);
    assertThat(workers).hasSize(TASKS).allMatch(w -> w.contains("_01_0"), "allocated by the first attempt");

    long firstAm = killAmOfAttempt(base, id, 1, shell, -1);
    long secondAm = killAmOfAttempt(base, id, 2, shell, firstAm);
    long rmDied = killAndRestartRm(base, secondAm);

    killAmOfAttempt(base, id, 3, shell, secondAm);
    // The restarted RM made the third attempt, so that attempt registered with it and no other.
    JsonNode third = Http.get(base + "/apps/" + id + "/appattempts").json()
        .path("appAttempts").path("appAttempt").get(2);
    assertThat(third.path("startTime").asLong()).as("made after the first RM process died: " + third)
        .isGreaterThan(rmDied);
    // The third attempt's AM is left to finish; by now it has taken the same workers over.
    assertThat(workerContainers(base, id, 3)).containsExactlyInAnyOrderElementsOf(workers);
    for (long pid : pids) assertThat(Path.of("/proc", Long.toString(pid))).as("task process " + pid).exists();

    Files.createFile(release);
    Http.await(Duration.ofSeconds(60), "the application to finish", () ->
        Http.get(base + "/apps/" + id).json().path("app").path("state").asText().equals("FINISHED"));
    JsonNode app = Http.get(base + "/apps/" + id).json().path("app");
    assertThat(app.path("finalStatus").asText()).as(app.toString()).isEqualTo("SUCCEEDED");
    // No task ran twice: one process id each, the one that ran from the start.
    assertThat(taskPids(runs)).containsExactlyInAnyOrderElementsOf(pids);
    JsonNode attempts = Http.get(base + "/apps/" + id + "/appattempts").json().path("appAttempts").path("appAttempt");
    assertThat(attempts.size()).isEqualTo(3);
    assertThat(attempts.get(0).path("appAttemptState").asText()).isEqualTo("FAILED");
    assertThat(attempts.get(1).path("appAttemptState").asText()).isEqualTo("FAILED");
    assertThat(attempts.get(2).path("appAttemptState").asText()).isEqualTo("FINISHED");
  }

  /**
   * Once the AM {@code deadAm} is gone, kills the RM with SIGKILL, before it can have started (let
   * alone registered) the next attempt, and starts it again on the same data directory and ports;
   * returns a time (ms since the epoch) by which the killed process was dead.
   */
  private long killAndRestartRm(String base, long deadAm) throws Exception {
    Http.await(Duration.ofSeconds(10), "the AM to be gone",
        () -> ProcessHandle.of(deadAm).map(p -> !p.isAlive()).orElse(true));
    rm.destroyForcibly().waitFor();
    long died = System.currentTimeMillis();
    assertThat(rm.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    startRm(base);
    return died;
  }

  /** Starts the RM member on its data directory and ports, and waits until it serves. */
  private void startRm(String base) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    rm = new ProcessBuilder(List.of(java, "-Xmx512m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
            Main.class.getName(), "rm", "--config", config.toString(), "--data-dir", data.toString(),
            "--hostname", "127.0.0.1", "--http-port", String.valueOf(http), "--cluster-port", String.valueOf(cluster)))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    Process started = rm;
    try {
      Http.await(Duration.ofSeconds(60), "the RM to serve", () -> {
        if (!started.isAlive()) throw new IllegalStateException("the RM exited with " + started.exitValue());
        return Http.get(base + "/info", Duration.ofSeconds(2)).status() == 200;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Files.readString(log), e);
    }
  }

  /**
   * Waits for the attempt's AM to register, and unless it is the last attempt, kills its process
   * with SIGKILL; returns the process id.
   */
  private long killAmOfAttempt(String base, String appId, int number, String shell, long previousAm)
      throws Exception {
    String attempt = attemptId(appId, number);
    Http.await(Duration.ofSeconds(90), attempt + " to be running", () -> {
      JsonNode all = Http.get(base + "/apps/" + appId + "/appattempts").json().path("appAttempts").path("appAttempt");
      return all.size() == number && all.get(number - 1).path("appAttemptState").asText().equals("RUNNING");
    });
    long[] pid = new long[1];
    Http.await(Duration.ofSeconds(30), "the AM process of " + attempt, () -> {
      Optional<ProcessHandle> am = amProcess(shell, previousAm);
      am.ifPresent(p -> pid[0] = p.pid());
      return am.isPresent();
    });
    if (number == 3) return pid[0];
    // Registered: it lists the workers the earlier attempts left running (none for the first).
    if (number > 1) {
      assertThat(workerContainers(base, appId, number)).as("workers kept for " + attempt).hasSize(TASKS);
    }
    ProcessHandle.of(pid[0]).ifPresent(ProcessHandle::destroyForcibly);
    return pid[0];
  }

  /**
   * The distributed-shell AM JVM running this shell command, other than {@code previous}. Read from
   * /proc, which holds the whole command line of a JVM started with the test's long class path.
   */
  private static Optional<ProcessHandle> amProcess(String shell, long previous) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != previous)
        .filter(p -> {
          try {
            String[] args = new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
                StandardCharsets.UTF_8).split("\0");
            String line = String.join(" ", args);
            return args[0].endsWith("java") && line.contains("DistributedShellAm") && line.contains(shell);
          } catch (IOException | RuntimeException gone) {
            return false;
          }
        })
        .findFirst();
  }

  /** The live workers the attempt's containers endpoint lists: every container but the AMs'. */
  private static List<String> workerContainers(String base, String appId, int number) throws Exception {
    String attempt = attemptId(appId, number);
    Http.Reply r = Http.get(base + "/apps/" + appId + "/appattempts/" + attempt + "/containers");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> out = new ArrayList<>();
    for (JsonNode c : r.json().path("containers").path("container")) {
      String id = c.path("containerId").asText();
      if (!id.endsWith("_000001")) out.add(id);
    }
    return out;
  }

  private static String attemptId(String appId, int number) {
    return "appattempt_" + appId.substring("application_".length()) + "_%06d".formatted(number);
  }

  /** Every process id the tasks wrote, in task order. */
  static List<Long> taskPids(Path runs) throws Exception {
    List<Long> out = new ArrayList<>();
    Set<Path> files = new TreeSet<>();
    try (var list = Files.list(runs)) {
      list.forEach(files::add);
    }
    for (Path f : files) {
      for (String line : Files.readAllLines(f)) if (!line.isBlank()) out.add(Long.parseLong(line.trim()));
    }
    return out;
  }
}
