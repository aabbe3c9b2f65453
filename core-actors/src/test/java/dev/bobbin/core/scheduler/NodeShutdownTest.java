package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/**
 * A NodeManager that stops gracefully unregisters (YARN's UnRegisterNodeManager): its node is
 * SHUTDOWN at once, in the journal too, what it ran is gone as on a lost node, and it runs again
 * once it registers.
 */
class NodeShutdownTest extends SchedulerFixture {

  private UnregisterNodeResponse unregister(String nodeId) {
    TestProbe<UnregisterNodeResponse> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.NodeUnregistered(nodeId, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void anUnregisteredNodeIsShutDownItsContainersAbortedAndItRunsAgainOnceRegistered() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    registerNode("b:1", 4096);

    assertThat(unregister("a:1").diagnostics()).isEmpty();

    assertThat(expectMarked("a:1", NodeState.SHUTDOWN).reason()).isEqualTo("its NodeManager shut down");
    Set<String> aborted = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      var completion = expectCompletion().request();
      assertThat(completion.exitStatus()).isEqualTo(ExitStatus.ABORTED);
      assertThat(completion.diagnostics()).isEqualTo("Container released on a *lost* node");
      aborted.add(completion.containerId());
    }
    assertThat(aborted).containsExactlyInAnyOrderElementsOf(ids);
    SchedulerProtocol.UsageReport u = usage();
    assertThat(u.shutdownNodes()).isEqualTo(1);
    assertThat(u.activeNodes()).isEqualTo(1);
    assertThat(u.clusterCapacity().memory()).as("b:1 alone").isEqualTo(4096);
    assertThat(heartbeat("a:1").nodeAction()).as("it must register again").isEqualTo(NodeAction.RESYNC);

    registerNode("a:1", 4096);
    assertThat(node(0).state()).isEqualTo(NodeState.RUNNING);
    assertThat(usage().shutdownNodes()).isZero();
    assertThat(usage().activeNodes()).isEqualTo(2);
  }

  @Test
  void aShutDownNodeGetsNoNewContainers() {
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);
    unregister("b:1");
    expectMarked("b:1", NodeState.SHUTDOWN);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 1)));
    assertThat(expectAllocation().request().nodeId()).isEqualTo("a:1");
  }

  @Test
  void anUnknownOrAlreadyDeadNodeChangesNothing() {
    assertThat(unregister("x:1").diagnostics()).contains("not found", "x:1");
    registerNode("a:1", 4096);
    unregister("a:1");
    expectMarked("a:1", NodeState.SHUTDOWN);
    assertThat(unregister("a:1").diagnostics()).contains("a:1 is SHUTDOWN already");
  }
}
