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
 * The Fair policy on real processes: tenant A fills the cluster, tenant B arrives, and preemption
 * gives B its fair share while A keeps its own.
 */
class FairPreemptionIT {
  private static final String ALLOCATIONS = """
      <?xml version="1.0"?>
      <allocations>
        <queue name="tenanta"><weight>1.0</weight></queue>
        <queue name="tenantb"><weight>1.0</weight></queue>
        <defaultFairSharePreemptionTimeout>2</defaultFairSharePreemptionTimeout>
        <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
      </allocations>
      """;

  private RmMember rm;
  private final List<NodeManager> nms = new ArrayList<>();

  @AfterEach
  void stop() {
    nms.forEach(NodeManager::close);
    if (rm != null) rm.close();
  }

  @Test
  void aStarvedTenantReachesItsFairShareByPreemptionAndTheOtherKeepsItsOwn(@TempDir Path dir) throws Exception {
    Path allocations = dir.resolve("fair-scheduler.xml");
    Files.writeString(allocations, ALLOCATIONS);
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.scheduler.policy", "fair",
        "bobbin.scheduler.fair.allocation-file", allocations.toString(),
        "bobbin.scheduler.fair.update-interval", "500ms",
        "bobbin.scheduler.fair.preemption.enabled", true,
        "bobbin.scheduler.fair.preemption.wait-before-kill", "1s")));
    for (int i = 1; i <= 2; i++) nms.add(ItNodes.start(rm, dir.resolve("nm-" + i)));
    String base = rm.url() + "/ws/v1/cluster";
    Http.await(Duration.ofSeconds(30), "two nodes", () ->
        Http.get(base + "/nodes?states=RUNNING").json().path("nodes").path("node").size() == 2);

    // A: an AM and 7 workers of 1 GB fill both 4 GB nodes.
    String a = SleeperApps.submit(base, "alice", "tenanta", 7);
    Http.await(Duration.ofSeconds(60), "tenant A to fill the cluster", () -> SleeperApps.allocatedMb(base, a) == 8192);

    // B: an AM and 4 workers. Its fair share is half the cluster, 4 GB: AM plus 3 workers.
    String b = SleeperApps.submit(base, "bob", "tenantb", 4);
    Http.await(Duration.ofSeconds(60), "tenant B to reach its fair share", () -> SleeperApps.allocatedMb(base, b) >= 4096);
    assertThat(SleeperApps.allocatedMb(base, a)).as("A keeps its own fair share").isGreaterThanOrEqualTo(4096);

    JsonNode victim = Http.get(base + "/apps/" + a).json().path("app");
    assertThat(victim.path("numNonAMContainerPreempted").asInt()).isGreaterThanOrEqualTo(3);
    assertThat(victim.path("numAMContainerPreempted").asInt()).isZero();
    JsonNode suffered = victim.path("preemptionsSuffered").path("preemption");
    assertThat(suffered.get(0).path("starvedAppId").asText()).isEqualTo(b);
    assertThat(suffered.get(0).path("reason").asText()).contains("fair share").contains(a);
    JsonNode caused = Http.get(base + "/apps/" + b).json().path("app").path("preemptionsCaused").path("preemption");
    assertThat(caused.size()).isGreaterThanOrEqualTo(3);

    JsonNode root = Http.get(base + "/scheduler").json().path("scheduler").path("schedulerInfo");
    assertThat(root.path("type").asText()).isEqualTo("fairScheduler");
    JsonNode queues = root.path("rootQueue").path("childQueues").path("queue");
    for (JsonNode q : queues) {
      assertThat(q.path("fairResources").path("memory").asLong()).as(q.path("queueName").asText()).isEqualTo(4096);
      assertThat(q.path("steadyFairResources").path("memory").asLong()).isEqualTo(4096);
    }

    for (String id : List.of(a, b)) {
      assertThat(Http.put(base + "/apps/" + id + "/state", "{\"state\":\"KILLED\"}").status()).isEqualTo(200);
    }
  }
}
