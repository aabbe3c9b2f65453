package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/**
 * A scheduler that takes over keeps every journalled node in its state: the dead ones (LOST,
 * DECOMMISSIONED, SHUTDOWN) are listed and counted with the reason and time of their state, and are
 * not waited for; a decommissioned node that heartbeats is still told to shut down.
 */
class NodeStatesAfterFailoverTest extends SchedulerFixture {
  private static final long LOST_AT = 1_700_000_100_000L;
  private static final long DECOMMISSIONED_AT = 1_700_000_200_000L;
  private static final long SHUT_DOWN_AT = 1_700_000_300_000L;

  private static NodeEntity.State journalled(String nodeId, NodeState state, String reason, long at) {
    var reg = new NodeEntity.Registration(nodeId, nodeId.split(":")[0], nodeId, "/default-rack", new Resource(4096, 8));
    return new NodeEntity.State(reg, state, 1, reason, 0, at);
  }

  /** a:1 was live; x:1, y:1 and z:1 were dead when the member died. */
  private void startFromAJournalWithDeadNodes() {
    RecoveredModel died = journalOfADeadMember();
    start(new RecoveredModel(Map.of(), Map.of(), Map.of(
        "a:1", died.nodes().get("a:1"),
        "x:1", journalled("x:1", NodeState.LOST, "no heartbeat for PT10M", LOST_AT),
        "y:1", journalled("y:1", NodeState.DECOMMISSIONED, "graceful decommission complete", DECOMMISSIONED_AT),
        "z:1", journalled("z:1", NodeState.SHUTDOWN, "its NodeManager shut down", SHUT_DOWN_AT))));
  }

  private Map<String, SchedulerProtocol.NodeReport> nodes() {
    TestProbe<SchedulerProtocol.NodesReport> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetNodes(probe.ref()));
    return probe.receiveMessage().nodes().stream()
        .collect(Collectors.toMap(SchedulerProtocol.NodeReport::nodeId, Function.identity()));
  }

  @Test
  void deadNodesAreListedAndCountedInTheirStateWithTheirReasonAndTime() {
    startFromAJournalWithDeadNodes();

    Map<String, SchedulerProtocol.NodeReport> nodes = nodes();
    assertThat(nodes).containsOnlyKeys("a:1", "x:1", "y:1", "z:1");
    assertThat(nodes.get("x:1").state()).isEqualTo(NodeState.LOST);
    assertThat(nodes.get("x:1").healthReport()).isEqualTo("no heartbeat for PT10M");
    assertThat(nodes.get("x:1").lastHealthUpdate()).isEqualTo(LOST_AT);
    assertThat(nodes.get("y:1").state()).isEqualTo(NodeState.DECOMMISSIONED);
    assertThat(nodes.get("y:1").healthReport()).isEqualTo("graceful decommission complete");
    assertThat(nodes.get("y:1").lastHealthUpdate()).isEqualTo(DECOMMISSIONED_AT);
    assertThat(nodes.get("z:1").state()).isEqualTo(NodeState.SHUTDOWN);
    assertThat(nodes.get("z:1").lastHealthUpdate()).isEqualTo(SHUT_DOWN_AT);

    SchedulerProtocol.UsageReport u = usage();
    assertThat(u.activeNodes()).isEqualTo(1);
    assertThat(u.lostNodes()).isEqualTo(1);
    assertThat(u.decommissionedNodes()).isEqualTo(1);
    assertThat(u.shutdownNodes()).isEqualTo(1);
    assertThat(u.clusterCapacity().memory()).as("a:1 alone takes containers").isEqualTo(3072);
  }

  @Test
  void theRecoveryWaitsOnlyForTheLiveNodeNotForTheDeadOnes() {
    startFromAJournalWithDeadNodes();
    addAttempt();
    effects.containers.expectNoMessage(Duration.ofMillis(300));

    // The recovery wait is 10 s and every node must re-sync (share 1.0): the live node alone ends it.
    registerNode("a:1", 3072);
    var am = expectAllocation();
    assertThat(am.request().nodeId()).isEqualTo("a:1");
  }

  @Test
  void aDecommissionedNodeIsToldToShutDownAndALostOrShutDownOneToRegisterAgain() {
    startFromAJournalWithDeadNodes();

    assertThat(heartbeat("y:1").nodeAction()).isEqualTo(NodeAction.SHUTDOWN);
    assertThat(heartbeat("x:1").nodeAction()).isEqualTo(NodeAction.RESYNC);
    assertThat(heartbeat("z:1").nodeAction()).isEqualTo(NodeAction.RESYNC);

    registerNode("z:1", 4096);
    assertThat(nodes().get("z:1").state()).isEqualTo(NodeState.RUNNING);
    assertThat(usage().shutdownNodes()).isZero();
  }

  @Test
  void aDeadNodeCannotBeDecommissionedAgainAfterTheFailover() {
    startFromAJournalWithDeadNodes();
    TestProbe<org.apache.pekko.pattern.StatusReply<String>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.SetNodeState("x:1", NodeState.DECOMMISSIONING, 1000, probe.ref()));
    assertThat(probe.receiveMessage().getError().getMessage()).contains("x:1 is LOST");
    assertThat(List.copyOf(nodes().keySet())).contains("x:1");
  }
}
