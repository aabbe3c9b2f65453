package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capacity policy's proportional preemption on real processes: queue a (70 %) fills the cluster
 * while b (30 %) is empty; b submits and reaches its guarantee through preemption while a keeps its
 * own.
 */
class CapacityPreemptionIT {
  /**
   * Rounds every 500 ms that take all a queue owes at once (no per-round cap, no natural
   * termination damping, no dead zone), killing 1 s after telling the AM.
   */
  private static final String CAPACITY = """
      bobbin.scheduler.capacity {
        queues {
          a { capacity = 70, user-limit-factor = 2 }
          b { capacity = 30 }
        }
        preemption {
          enabled = true
          monitoring-interval = 500ms
          max-wait-before-kill = 1s
          total-preemption-per-round = 1.0
          natural-termination-factor = 1.0
          max-ignored-over-capacity = 0
        }
      }
      """;

  private RmMember rm;
  private final List<NodeManager> nms = new ArrayList<>();

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    if (rm != null) rm.close();
  }

  @Test
  void anEmptyQueueReachesItsGuaranteeByPreemptionAndTheFullOneKeepsItsOwn(@TempDir Path dir) throws Exception {
    rm = RmMember.start(ConfigFactory.parseString(CAPACITY).withFallback(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.scheduler.policy", "capacity"))));
    // Two nodes of 5 GB: a is guaranteed 7 GB, b 3 GB.
    for (int i = 1; i <= 2; i++) nms.add(ItNodes.start(rm, dir.resolve("nm-" + i), 5120, 5));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "two nodes", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 2);

    // a: an AM and 9 workers of 1 GB take all 10 GB; b asks nothing, so nothing is preempted.
    String a = SleeperApps.submit(base, "alice", "a", 9);
    Http.await(Duration.ofSeconds(60), "a to fill the cluster", () -> SleeperApps.allocatedMb(base, a) == 10240);

    // b: an AM and 2 workers, its 3 GB guarantee. Its AM's GB is taken from a first, then the two
    // workers' once the AM asks for them.
    String b = SleeperApps.submit(base, "bob", "b", 2);
    Http.await(Duration.ofSeconds(60), "b to reach its guarantee", () -> SleeperApps.allocatedMb(base, b) == 3072);
    assertThat(SleeperApps.allocatedMb(base, a)).as("a keeps its guarantee").isEqualTo(7168);
    // Later rounds take nothing more: both hold their guarantees.
    JsonNode victim = Http.get(base + "/apps/" + a).json().path("app");
    int preempted = victim.path("numNonAMContainerPreempted").asInt();
    assertThat(preempted).isEqualTo(3);
    assertThat(victim.path("numAMContainerPreempted").asInt()).isZero();
    Http.await(Duration.ofSeconds(10), "a's AM to ask again for what it lost", () ->
        queue(base, "root.a").path("pendingContainers").asInt() == 3);
    assertThat(Http.get(base + "/apps/" + a).json().path("app").path("numNonAMContainerPreempted").asInt())
        .isEqualTo(preempted);
    assertThat(SleeperApps.allocatedMb(base, a)).isEqualTo(7168);

    JsonNode suffered = victim.path("preemptionsSuffered").path("preemption");
    assertThat(suffered.get(0).path("kind").asText()).isEqualTo("CAPACITY");
    assertThat(suffered.get(0).path("starvedQueue").asText()).isEqualTo("root.b");
    assertThat(suffered.get(0).path("reason").asText()).contains("from root.a").contains("freed for root.b");

    JsonNode qa = queue(base, "root.a");
    assertThat(qa.path("resourcesUsed").path("memory").asLong()).isEqualTo(7168);
    assertThat(queue(base, "root.b").path("resourcesUsed").path("memory").asLong()).isEqualTo(3072);

    for (String id : List.of(a, b)) {
      assertThat(Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
    }
  }

  private static JsonNode queue(String base, String path) throws Exception {
    JsonNode info = Http.get(base + "/scheduler").json().path("scheduler").path("schedulerInfo");
    for (JsonNode q : info.path("queues").path("queue")) {
      if (q.path("queuePath").asText().equals(path)) return q;
    }
    throw new AssertionError("no queue " + path + " in " + info);
  }
}
