package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graceful decommission on real processes: a decommissioning node takes no new containers, the
 * application running on it finishes, and the node is then DECOMMISSIONED; at the timeout what it
 * still runs is killed.
 */
class DecommissionIT {
  @TempDir Path dir;
  RmMember rm;
  String base;
  final List<NodeManager> nms = new ArrayList<>();

  @BeforeEach
  void startRm() throws Exception {
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort())));
    base = rm.url() + "/ws/v1/cluster";
  }

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    nms.clear();
    if (rm != null) rm.close();
  }

  private NodeManager node(String name) throws Exception {
    NodeManager nm = ItNodes.start(rm, dir.resolve(name), 4096, 4);
    nms.add(nm);
    return nm;
  }

  private JsonNode nodeAtRm(String nodeId) throws Exception {
    return Http.get(base + "/nodes/" + nodeId).json().path("node");
  }

  private void awaitState(String nodeId, String state, Duration within) throws Exception {
    Http.await(within, nodeId + " " + state, () -> nodeAtRm(nodeId).path("state").asText().equals(state));
  }

  /** A shell application whose one worker runs {@code command}. */
  private String submit(String command) throws Exception {
    String id = Http.post(base + "/apps/new-application?user.name=alice", "").json().path("application-id").asText();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", id);
    body.put("application-name", "decommission");
    body.put("resource", new Resource(1024, 1));
    body.put("am-container-spec", Map.of("commands", Map.of("command",
        ShellAmSpec.commands(System.getProperty("java.class.path"), command, 1, new Resource(1024, 1), 0))));
    Http.Reply r = Http.post(base + "/apps?user.name=alice", WireJson.mapper().writeValueAsString(body));
    assertThat(r.status()).as(r.body()).isEqualTo(202);
    return id;
  }

  private JsonNode app(String id) throws Exception {
    return Http.get(base + "/apps/" + id).json().path("app");
  }

  @Test
  void aDecommissioningNodeLetsItsApplicationFinishTakesNothingNewAndIsThenDecommissioned() throws Exception {
    NodeManager leaving = node("nm-leaving");
    awaitState(leaving.nodeId(), "RUNNING", Duration.ofSeconds(20));
    String app = submit("sleep 8");
    Http.await(Duration.ofSeconds(30), "the AM and its worker on the node", () ->
        nodeAtRm(leaving.nodeId()).path("numContainers").asInt() == 2);

    Http.Reply draining = Http.put(base + "/nodes/" + leaving.nodeId() + "/state",
        "{\"state\":\"DECOMMISSIONING\",\"decommissionTimeout\":120}");
    assertThat(draining.status()).as(draining.body()).isEqualTo(200);
    assertThat(nodeAtRm(leaving.nodeId()).path("state").asText()).isEqualTo("DECOMMISSIONING");
    assertThat(Http.get(base + "/metrics").json().path("clusterMetrics").path("decommissioningNodes").asInt())
        .isEqualTo(1);
    // Its free space leaves the cluster at once: what it still runs is all it counts for.
    JsonNode drainingNode = nodeAtRm(leaving.nodeId());
    assertThat(drainingNode.path("totalResource").path("memory").asLong()).isEqualTo(2048);
    assertThat(drainingNode.path("availMemoryMB").asLong()).isZero();
    assertThat(Http.get(base + "/metrics").json().path("clusterMetrics").path("totalMB").asLong()).isEqualTo(2048);
    NodeManager staying = node("nm-staying");
    awaitState(staying.nodeId(), "RUNNING", Duration.ofSeconds(20));
    String other = submit("sleep 1");
    Http.await(Duration.ofSeconds(30), "the second application's AM on the other node", () ->
        nodeAtRm(staying.nodeId()).path("numContainers").asInt() > 0);
    assertThat(app(app).path("state").asText()).as("it runs on").isEqualTo("RUNNING");

    Http.await(Duration.ofSeconds(40), "the application to finish", () ->
        app(app).path("state").asText().equals("FINISHED"));
    assertThat(app(app).path("finalStatus").asText()).isEqualTo("SUCCEEDED");
    awaitState(leaving.nodeId(), "DECOMMISSIONED", Duration.ofSeconds(10));
    JsonNode metrics = Http.get(base + "/metrics").json().path("clusterMetrics");
    assertThat(metrics.path("decommissionedNodes").asInt()).isEqualTo(1);
    assertThat(metrics.path("decommissioningNodes").asInt()).isZero();
    assertThat(metrics.path("totalMB").asLong()).as("the staying node alone").isEqualTo(4096);
    Http.await(Duration.ofSeconds(30), "the second application to finish", () ->
        app(other).path("state").asText().equals("FINISHED"));
  }

  @Test
  void atTheTimeoutWhatTheNodeStillRunsIsKilled() throws Exception {
    NodeManager leaving = node("nm-leaving");
    awaitState(leaving.nodeId(), "RUNNING", Duration.ofSeconds(20));
    String app = submit("sleep 300");
    Http.await(Duration.ofSeconds(30), "the AM and its worker on the node", () ->
        nodeAtRm(leaving.nodeId()).path("numContainers").asInt() == 2);

    Http.Reply draining = Http.put(base + "/nodes/" + leaving.nodeId() + "/state",
        "{\"state\":\"DECOMMISSIONING\",\"decommissionTimeout\":2}");
    assertThat(draining.status()).as(draining.body()).isEqualTo(200);

    awaitState(leaving.nodeId(), "DECOMMISSIONED", Duration.ofSeconds(15));
    Http.await(Duration.ofSeconds(15), "the AM's attempt to end with the decommission's diagnostic", () ->
        Http.get(base + "/apps/" + app + "/appattempts").body().contains("graceful decommission timed out"));
    Http.put(base + "/apps/" + app + "/state?user.name=alice", "{\"state\":\"KILLED\"}");
  }
}
