package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/**
 * A node refresh through the scheduler actor: a running node whose host the re-read lists refuse is
 * DECOMMISSIONED in the journal, its containers are killed with a diagnostic, and its next heartbeat
 * is told to shut down; nodes the lists still allow go on.
 */
class RefusedHostsTest extends SchedulerFixture {

  private List<String> decommission(Set<String> included, Set<String> excluded) {
    TestProbe<SchedulerProtocol.Decommissioned> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.DecommissionRefusedHosts(included, excluded, -1, probe.ref()));
    return probe.receiveMessage().nodeIds();
  }

  @Test
  void aRunningNodeWhoseHostIsNowExcludedIsDecommissionedItsContainersKilledAndToldToShutDown() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    registerNode("b:1", 4096);

    assertThat(decommission(null, Set.of("a"))).containsExactly("a:1");

    expectMarked("a:1", NodeState.DECOMMISSIONED);
    Set<String> killed = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      var completion = expectCompletion();
      assertThat(completion.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
      assertThat(completion.request().diagnostics()).contains("*decommissioned* node a:1");
      killed.add(completion.request().containerId());
    }
    assertThat(killed).containsExactlyInAnyOrderElementsOf(ids);
    NodeHeartbeatResponse told = heartbeat("a:1");
    assertThat(told.nodeAction()).isEqualTo(NodeAction.SHUTDOWN);
    assertThat(told.diagnostics()).contains("Disallowed NodeManager", "a:1");
    assertThat(node(0).state()).isEqualTo(NodeState.DECOMMISSIONED);
    assertThat(node(1).state()).as("b is still allowed").isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aHostMissingFromTheIncludeListIsDecommissionedAndAnIncludedOneIsNot() {
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);

    assertThat(decommission(Set.of("b"), Set.of())).containsExactly("a:1");

    expectMarked("a:1", NodeState.DECOMMISSIONED);
    assertThat(node(1).state()).isEqualTo(NodeState.RUNNING);
    assertThat(decommission(Set.of("b"), Set.of())).as("a node already decommissioned is not again").isEmpty();
  }

  @Test
  void aDecommissionedNodeThatRegistersAgainOnceAllowedRunsAgain() {
    registerNode("a:1", 4096);
    decommission(null, Set.of("a"));
    expectMarked("a:1", NodeState.DECOMMISSIONED);

    registerNode("a:1", 4096);
    nmResponseId = 0;

    assertThat(node(0).state()).isEqualTo(NodeState.RUNNING);
    assertThat(heartbeat("a:1").nodeAction()).isEqualTo(NodeAction.NORMAL);
  }
}
