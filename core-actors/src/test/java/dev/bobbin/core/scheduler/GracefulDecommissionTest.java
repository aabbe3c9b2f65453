package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.Test;

/**
 * Graceful decommission through the scheduler actor (YARN's DECOMMISSIONING): the node takes no new
 * containers while those it runs go on; it is DECOMMISSIONED once it runs none, or at its timeout
 * with what is left killed; a recommission takes it back; a recovered scheduler keeps it going.
 */
class GracefulDecommissionTest extends SchedulerFixture {
  private static final long TEN_MINUTES = Duration.ofMinutes(10).toMillis();

  private StatusReply<String> setState(String nodeId, NodeState state) {
    TestProbe<StatusReply<String>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.SetNodeState(nodeId, state, TEN_MINUTES, probe.ref()));
    return probe.receiveMessage();
  }

  private Write.MarkNode expectMarked(NodeState state) {
    return expectMarked("a:1", state);
  }

  @Test
  void aDecommissioningNodeTakesNoNewContainersLetsItsOwnFinishAndIsThenDecommissioned() {
    Worker worker = aRunningWorker();
    String am = "container_e1_1700000000000_0001_01_000001";
    registerNode("b:1", 4096);
    long before = clock.millis();

    assertThat(setState("a:1", NodeState.DECOMMISSIONING).getValue()).isEqualTo("DECOMMISSIONING");
    Write.MarkNode marked = expectMarked(NodeState.DECOMMISSIONING);
    assertThat(marked.until()).isBetween(before + TEN_MINUTES, clock.millis() + TEN_MINUTES);

    allocate(worker.responseId(), List.of(ResourceRequest.any(1, GB, 1)));
    assertThat(expectAllocation().request().nodeId()).as("new containers go elsewhere").isEqualTo("b:1");
    var still = heartbeat("a:1", ContainerStatus.running(am, GB), ContainerStatus.running(worker.id(), GB));
    assertThat(still.nodeAction()).isEqualTo(NodeAction.NORMAL);
    assertThat(still.containersToCleanup()).as("its containers go on").isEmpty();
    expectContainerWrite(Write.MarkRunning.class);
    assertThat(node(0).state()).isEqualTo(NodeState.DECOMMISSIONING);

    heartbeat("a:1", ContainerStatus.running(am, GB), ContainerStatus.completed(worker.id(), 0, "done", GB));
    expectCompletion().answer(Done.getInstance());
    assertThat(node(0).state()).as("the AM still runs there").isEqualTo(NodeState.DECOMMISSIONING);
    heartbeat("a:1", ContainerStatus.completed(am, 0, "done", GB));
    expectCompletion().answer(Done.getInstance());

    assertThat(expectMarked(NodeState.DECOMMISSIONED).reason()).isEqualTo("graceful decommission complete");
    assertThat(heartbeat("a:1").nodeAction()).isEqualTo(NodeAction.SHUTDOWN);
  }

  @Test
  void aNodeThatRunsNothingIsDecommissionedOnceItHasReportedSinceItsDecommissionBegan() {
    registerNode("a:1", 4096);
    clock.advance(Duration.ofSeconds(1));
    setState("a:1", NodeState.DECOMMISSIONING);
    expectMarked(NodeState.DECOMMISSIONING);

    scheduler.tell(new SchedulerProtocol.Tick());
    assertThat(node(0).state()).as("not heard from since").isEqualTo(NodeState.DECOMMISSIONING);

    heartbeat("a:1");
    scheduler.tell(new SchedulerProtocol.Tick());
    assertThat(expectMarked(NodeState.DECOMMISSIONED).reason()).isEqualTo("graceful decommission complete");
  }

  @Test
  void atItsTimeoutWhatTheNodeStillRunsIsKilledWithADiagnosticNamingTheDecommission() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    setState("a:1", NodeState.DECOMMISSIONING);
    expectMarked(NodeState.DECOMMISSIONING);

    clock.advance(Duration.ofMinutes(11));

    assertThat(expectMarked(NodeState.DECOMMISSIONED).reason()).contains("graceful decommission timed out");
    Set<String> killed = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      var completion = expectCompletion().request();
      assertThat(completion.exitStatus()).isEqualTo(ExitStatus.ABORTED);
      assertThat(completion.diagnostics()).contains("*decommissioned* node a:1", "graceful decommission timed out");
      killed.add(completion.containerId());
    }
    assertThat(killed).containsExactlyInAnyOrderElementsOf(ids);
  }

  @Test
  void theClusterCountsDecommissioningAndDecommissionedNodesApartFromActiveOnes() {
    anAppRunningItsAmAndAWorker(); // on a:1, which then stays decommissioning
    registerNode("b:1", 4096);
    registerNode("c:1", 4096);
    setState("a:1", NodeState.DECOMMISSIONING);
    setState("b:1", NodeState.DECOMMISSIONED);

    SchedulerProtocol.UsageReport u = usage();
    assertThat(u.activeNodes()).isEqualTo(1);
    assertThat(u.decommissioningNodes()).isEqualTo(1);
    assertThat(u.decommissionedNodes()).isEqualTo(1);
    assertThat(u.clusterCapacity().memory()).as("c:1, and of a:1 only what it still runs").isEqualTo(4096 + 2048);
    assertThat(u.clusterUsed().memory()).isEqualTo(2048);
  }

  @Test
  void aDecommissioningNodesTotalShrinksToWhatItStillRunsAndARecommissionRestoresIt() {
    List<String> ids = anAppRunningItsAmAndAWorker(); // 2 GB of a:1's 4 GB
    registerNode("b:1", 4096);
    setState("a:1", NodeState.DECOMMISSIONING);
    expectMarked(NodeState.DECOMMISSIONING);

    assertThat(node(0).capacity()).as("its free space leaves the cluster").isEqualTo(new Resource(2048, 2));
    assertThat(usage().clusterCapacity().memory()).isEqualTo(4096 + 2048);

    heartbeat("a:1", ContainerStatus.running(ids.get(0), GB), ContainerStatus.completed(ids.get(1), 0, "done", GB));
    expectCompletion().answer(Done.getInstance());
    assertThat(node(0).capacity()).as("and so does each container's as it ends").isEqualTo(new Resource(1024, 1));
    assertThat(node(0).used()).isEqualTo(new Resource(1024, 1));
    SchedulerProtocol.UsageReport u = usage();
    assertThat(u.clusterCapacity().memory()).isEqualTo(4096 + 1024);
    assertThat(u.clusterUsed().memory()).isEqualTo(1024);

    setState("a:1", NodeState.RUNNING);
    expectMarked(NodeState.RUNNING);
    assertThat(node(0).capacity()).as("its registered capability again").isEqualTo(new Resource(4096, 8));
    assertThat(usage().clusterCapacity().memory()).isEqualTo(8192);
  }

  @Test
  void aRecommissionedNodeTakesNewContainersAgain() {
    Worker worker = aRunningWorker();
    setState("a:1", NodeState.DECOMMISSIONING);
    expectMarked(NodeState.DECOMMISSIONING);

    assertThat(setState("a:1", NodeState.RUNNING).getValue()).isEqualTo("RUNNING");
    expectMarked(NodeState.RUNNING);

    allocate(worker.responseId(), List.of(ResourceRequest.any(1, GB, 1)));
    assertThat(expectAllocation().request().nodeId()).isEqualTo("a:1");
  }

  @Test
  void onlyALiveNodeIsDecommissionedAndOnlyADecommissioningOneRecommissioned() {
    registerNode("a:1", 4096);
    assertThat(setState("x:1", NodeState.DECOMMISSIONING).getError().getMessage()).contains("x:1", "not found");
    assertThat(setState("a:1", NodeState.LOST).getError().getMessage()).contains("Invalid node state LOST");
    setState("a:1", NodeState.DECOMMISSIONED);
    expectMarked(NodeState.DECOMMISSIONED);
    assertThat(setState("a:1", NodeState.RUNNING).getError().getMessage()).contains("a:1 is DECOMMISSIONED");
    assertThat(setState("a:1", NodeState.DECOMMISSIONING).getError().getMessage()).contains("only a live node");
  }

  @Test
  void aGracefulRefreshDecommissionsARefusedHostGraduallyAndRecommissionsItOnceAllowedAgain() {
    registerNode("a:1", 4096);
    startAppWithAm();
    TestProbe<SchedulerProtocol.Decommissioned> probe = testKit.createTestProbe();

    scheduler.tell(new SchedulerProtocol.DecommissionRefusedHosts(null, Set.of("a"), TEN_MINUTES, probe.ref()));
    assertThat(probe.receiveMessage().nodeIds()).containsExactly("a:1");
    expectMarked(NodeState.DECOMMISSIONING);
    assertThat(node(0).state()).as("its AM runs there").isEqualTo(NodeState.DECOMMISSIONING);

    scheduler.tell(new SchedulerProtocol.DecommissionRefusedHosts(null, Set.of(), TEN_MINUTES, probe.ref()));
    assertThat(probe.receiveMessage().nodeIds()).isEmpty();
    expectMarked(NodeState.RUNNING);
    assertThat(node(0).state()).isEqualTo(NodeState.RUNNING);
  }

  @Test
  void aRecoveredSchedulerGoesOnWithAJournalledGracefulDecommissionAndItsTimeout() {
    RecoveredModel died = journalOfADeadMember();
    NodeEntity.State journalled = died.nodes().get("a:1");
    long until = clock.millis() + TEN_MINUTES;
    var decommissioning = new NodeEntity.State(journalled.registration(), NodeState.DECOMMISSIONING, 1, "graceful",
        until);
    start(new RecoveredModel(died.apps(), died.containers(), Map.of("a:1", decommissioning)));
    assertThat(node(0).state()).isEqualTo(NodeState.DECOMMISSIONING);

    String am = "container_e1_1700000000000_0001_01_000001";
    String worker = "container_e1_1700000000000_0001_01_000002";
    register("a:1", 3072, List.of(ContainerStatus.running(am, GB), ContainerStatus.running(worker, GB)), List.of());
    assertThat(node(0).state()).as("a registration does not end it").isEqualTo(NodeState.DECOMMISSIONING);

    clock.advance(Duration.ofMinutes(11));
    expectMarked(NodeState.DECOMMISSIONED);
  }
}
