package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.bobbin.node.server.NodeManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An RM member as a real process: kill -9, restart on the same data directory, nothing accepted is
 * lost; and its NodeManager follows a new cluster that replaces it on the same address.
 */
class RmRestartIT {
  private Process rm;

  @AfterEach
  void stop() {
    if (rm != null) rm.destroyForcibly();
  }

  private NodeManager nm;

  @AfterEach
  void stopNode() {
    if (nm != null) nm.close();
  }

  /** An RM member as a process of its own, its output appended to {@code log}. */
  static Process startRm(Path dataDir, int httpPort, int clusterPort, Path log, String... more) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
        "dev.bobbin.launcher.Main", "rm", "--data-dir", dataDir.toString(),
        "--http-port", String.valueOf(httpPort), "--cluster-port", String.valueOf(clusterPort)));
    command.addAll(List.of(more));
    return new ProcessBuilder(command)
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }

  @Test
  void acceptedAndKilledApplicationsSurviveAKillNine(@TempDir Path dir) throws Exception {
    int http = RestApiIT.freePort();
    int cluster = RestApiIT.freePort();
    Path data = dir.resolve("data");
    Path log = dir.resolve("rm.log");
    String base = "http://127.0.0.1:" + http + "/ws/v1/cluster";
    rm = startRm(data, http, cluster, log);
    awaitUp(base, log);
    nm = ItNodes.start("http://127.0.0.1:" + http, data.resolve("node-credential"), dir.resolve("nm"));
    awaitRunningNode(base);

    String accepted = submit(base);
    String killed = submit(base);
    assertThat(Http.put(base + "/apps/" + killed + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);

    rm.destroyForcibly().waitFor();
    assertThat(rm.exitValue()).as("killed by SIGKILL").isEqualTo(137);

    rm = startRm(data, http, cluster, log);
    awaitUp(base, log);
    assertThat(Http.get(base + "/apps/" + accepted).json().path("app").path("state").asText()).isEqualTo("ACCEPTED");
    assertThat(Http.get(base + "/apps/" + killed).json().path("app").path("state").asText()).isEqualTo("KILLED");
    Http.await(Duration.ofSeconds(30), "both apps listed after the restart", () -> {
      JsonNode apps = Http.get(base + "/apps").json().path("apps").path("app");
      return apps.toString().contains(accepted) && apps.toString().contains(killed);
    });
    String fresh = submit(base);
    assertThat(fresh).isNotIn(accepted, killed);
    awaitRunningNode(base);

    // The cluster is replaced by a new one on a new journal, on the same address and with the same
    // node credential: its scheduler epochs start again below the node's, and the node follows it.
    rm.destroyForcibly().waitFor();
    Path conf = Files.writeString(dir.resolve("fresh.conf"),
        "bobbin.rm.node-credential-file = \"" + data.resolve("node-credential") + "\"\n");
    rm = startRm(dir.resolve("fresh"), http, cluster, log, "--config", conf.toString());
    awaitUp(base, log);
    awaitRunningNode(base);
    Path ran = dir.resolve("ran-in-the-new-cluster");
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply r = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"touch %s"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id, ran));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    Http.await(Duration.ofSeconds(60), "the new cluster's container to run on the node", () -> Files.exists(ran));
  }

  private static void awaitRunningNode(String base) throws Exception {
    Http.await(Duration.ofSeconds(60), "the node to be RUNNING", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 1);
  }

  private static String submit(String base) throws Exception {
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply r = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"sleep 1"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private void awaitUp(String base, Path log) throws Exception {
    awaitUp(rm, base, log);
  }

  /** Until the member serves; its log is in the failure if it does not. */
  static void awaitUp(Process rm, String base, Path log) throws Exception {
    try {
      Http.await(Duration.ofSeconds(60), "the RM to serve", () -> {
        if (!rm.isAlive()) throw new IllegalStateException("RM exited with " + rm.exitValue());
        return Http.get(base + "/info").status() == 200;
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + Files.readString(log), e);
    }
  }

}
