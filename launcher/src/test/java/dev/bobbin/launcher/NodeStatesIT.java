package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node states on real processes: a decommissioned node is still listed and counted after its RM
 * member is killed and restarted, and does not make the restarted scheduler wait for it; a
 * NodeManager stopped with SIGTERM is SHUTDOWN at once and RUNNING again once started, while one
 * killed with SIGKILL is LOST after the liveness expiry.
 */
class NodeStatesIT {
  @TempDir Path dir;
  private Process rmProcess;
  private RmMember rmMember;
  private Process nmProcess;
  private final List<NodeManager> nms = new ArrayList<>();

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    if (nmProcess != null) nmProcess.destroyForcibly();
    if (rmProcess != null) rmProcess.destroyForcibly();
    if (rmMember != null) rmMember.close();
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static JsonNode node(String base, String nodeId) throws Exception {
    return Http.get(base + "/nodes/" + nodeId).json().path("node");
  }

  private static void awaitState(String base, String nodeId, String state, Duration within) throws Exception {
    Http.await(within, nodeId + " " + state, () -> node(base, nodeId).path("state").asText().equals(state));
  }

  private static JsonNode metrics(String base) throws Exception {
    return Http.get(base + "/metrics").json().path("clusterMetrics");
  }

  @Test
  void aDecommissionedNodeIsListedAndCountedAfterAnRmRestartThatDoesNotWaitForIt() throws Exception {
    int http = RestApiIT.freePort();
    int cluster = RestApiIT.freePort();
    Path data = dir.resolve("data");
    Path log = dir.resolve("rm.log");
    // A restart would wait two minutes for a node it waits for: every node must re-sync.
    Path config = Files.writeString(dir.resolve("rm.conf"),
        "bobbin.rm.recovery { scheduling-wait = 120s, min-node-share = 1.0 }\n");
    String rmUrl = "http://127.0.0.1:" + http;
    String base = rmUrl + "/ws/v1/cluster";
    rmProcess = RmRestartIT.startRm(data, http, cluster, log, "--config", config.toString());
    RmRestartIT.awaitUp(rmProcess, base, log);
    NodeManager leaving = ItNodes.start(rmUrl, data.resolve("node-credential"), dir.resolve("nm-leaving"));
    nms.add(leaving);
    awaitState(base, leaving.nodeId(), "RUNNING", Duration.ofSeconds(30));

    Http.Reply r = Http.put(base + "/nodes/" + leaving.nodeId() + "/state", "{\"state\":\"DECOMMISSIONED\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    // Its next heartbeat, after the decommission was journalled, tells it to shut down.
    Http.await(Duration.ofSeconds(20), "the node told to shut down", () ->
        Http.get("http://" + leaving.httpAddress() + "/ws/v1/node/info").json().path("nodeInfo").path("rmLinkState").asText()
            .equals("SHUT_DOWN_BY_RM"));

    rmProcess.destroyForcibly().waitFor();
    rmProcess = RmRestartIT.startRm(data, http, cluster, log, "--config", config.toString());
    RmRestartIT.awaitUp(rmProcess, base, log);

    JsonNode listed = node(base, leaving.nodeId());
    assertThat(listed.path("state").asText()).isEqualTo("DECOMMISSIONED");
    assertThat(listed.path("healthReport").asText()).isEqualTo("decommissioned by an administrator");
    JsonNode m = metrics(base);
    assertThat(m.path("decommissionedNodes").asInt()).isEqualTo(1);
    assertThat(m.path("activeNodes").asInt()).isZero();

    NodeManager fresh = ItNodes.start(rmUrl, data.resolve("node-credential"), dir.resolve("nm-fresh"));
    nms.add(fresh);
    Path ran = dir.resolve("ran-after-the-restart");
    String id = Http.post(base + "/apps/new-application", "").json().path("application-id").asText();
    Http.Reply submitted = Http.post(base + "/apps", """
        {"application-id":"%s","am-container-spec":{"commands":{"command":"touch %s"}},
         "resource":{"memory":1024,"vCores":1}}""".formatted(id, ran));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
    Http.await(Duration.ofSeconds(60), "a container to run well before the two-minute wait", () -> Files.exists(ran));
    assertThat(Files.readString(log)).contains("Scheduler recovery finished: 0 of 0 live nodes re-synced");
  }

  @Test
  void aNodeManagerStoppedWithSigtermIsShutDownAndRunsAgainOnceStartedAndOneKilledIsLost() throws Exception {
    rmMember = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "bobbin.rm.nm-expiry", "4s",
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    String base = rmMember.url() + "/ws/v1/cluster";
    int nmPort = RestApiIT.freePort();
    String nodeId = "127.0.0.1:" + nmPort;
    List<String> nm = List.of(java(), "-Xmx256m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "nm", "--rm", rmMember.url(), "--http-port", String.valueOf(nmPort),
        "--memory", "4096", "--vcores", "4", "--work-dir", dir.resolve("nm").toString(),
        "--node-credential", rmMember.nodeCredentialFile().toString());
    Path nmLog = dir.resolve("nm.log");
    nmProcess = startNm(nm, nmLog);
    awaitState(base, nodeId, "RUNNING", Duration.ofSeconds(30));
    // As in YARN, only a NodeManager that knows it registered unregisters: the RM's answer may
    // reach it after the RM lists the node.
    Http.await(Duration.ofSeconds(10), "the NodeManager to hear it registered", () ->
        Files.readString(nmLog).contains("registered with RM"));

    nmProcess.destroy(); // SIGTERM
    assertThat(nmProcess.waitFor()).as("a graceful stop").isIn(0, 143);
    // The RM's answer may still be on its way when the process has exited; a node it did not hear
    // from would be LOST after the liveness expiry, and never SHUTDOWN.
    awaitState(base, nodeId, "SHUTDOWN", Duration.ofSeconds(20));
    JsonNode m = metrics(base);
    assertThat(m.path("shutdownNodes").asInt()).isEqualTo(1);
    assertThat(m.path("activeNodes").asInt()).isZero();
    assertThat(Files.readString(nmLog)).contains("unregistered from RM");

    nmProcess = startNm(nm, nmLog);
    awaitState(base, nodeId, "RUNNING", Duration.ofSeconds(30));
    assertThat(metrics(base).path("shutdownNodes").asInt()).isZero();

    nmProcess.destroyForcibly().waitFor(); // SIGKILL: the RM hears nothing
    assertThat(node(base, nodeId).path("state").asText()).isEqualTo("RUNNING");
    awaitState(base, nodeId, "LOST", Duration.ofSeconds(20));
    assertThat(metrics(base).path("lostNodes").asInt()).isEqualTo(1);
  }

  private Process startNm(List<String> command, Path log) throws Exception {
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }
}
