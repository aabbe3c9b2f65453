package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Nodes that report themselves unhealthy (YARN's UNHEALTHY node state), through the scheduler actor:
 * they keep heartbeating and running what they run, get nothing new, and come back when healthy.
 */
class UnhealthyNodeTest extends SchedulerFixture {
  private static final String REPORT = "ERROR /data1 went read-only";
  private static final long CHECKED_AT = 1_700_000_123_000L;
  /** Each node's last response id; the fixture keeps one instance for every test. */
  private final Map<String, Integer> responseIds = new HashMap<>();

  @BeforeEach
  void forgetResponseIds() {
    responseIds.clear();
  }

  private NodeHeartbeatResponse heartbeat(String nodeId, boolean healthy, String report, ContainerStatus... statuses) {
    TestProbe<NodeHeartbeatResponse> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.NodeHeartbeat(new NodeHeartbeatRequest(nodeId,
        responseIds.getOrDefault(nodeId, 0), List.of(statuses), healthy, report, 0, CHECKED_AT), probe.ref()));
    NodeHeartbeatResponse r = probe.receiveMessage();
    responseIds.put(nodeId, r.responseId());
    return r;
  }

  private Write.MarkNode expectMarked(NodeState state) {
    return expectMarked("a:1", state);
  }

  /** An AM and a worker running on a:1; returns the AM's next allocate response id. */
  private int anAmAndAWorkerRunningOnA(String[] ids) {
    registerNode("a:1", 4096);
    ids[0] = startAppWithAm();
    heartbeat("a:1", true, "", ContainerStatus.running(ids[0], GB));
    expectContainerWrite(Write.MarkRunning.class);
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    ids[1] = worker.request().containerId();
    AllocateResponse delivered = allocateUntilAllocated(1, 1);
    heartbeat("a:1", true, "", ContainerStatus.running(ids[0], GB), ContainerStatus.running(ids[1], GB));
    expectContainerWrite(Write.MarkRunning.class);
    return delivered.responseId();
  }

  @Test
  void anUnhealthyNodeKeepsHeartbeatingAndRunningItsContainersGetsNoNewOnesAndReturnsWhenHealthy() {
    String[] ids = new String[2];
    int amResponseId = anAmAndAWorkerRunningOnA(ids);
    ContainerStatus[] running = {ContainerStatus.running(ids[0], GB), ContainerStatus.running(ids[1], GB)};

    NodeHeartbeatResponse sick = heartbeat("a:1", false, REPORT, running);
    assertThat(sick.nodeAction()).isEqualTo(NodeAction.NORMAL);
    assertThat(sick.containersToCleanup()).as("its containers go on").isEmpty();
    assertThat(expectMarked(NodeState.UNHEALTHY).reason()).isEqualTo(REPORT);
    SchedulerProtocol.NodeReport node = node(0);
    assertThat(node.state()).isEqualTo(NodeState.UNHEALTHY);
    assertThat(node.healthReport()).isEqualTo(REPORT);
    assertThat(node.lastHealthUpdate()).isEqualTo(CHECKED_AT);
    assertThat(node.numContainers()).isEqualTo(2);
    SchedulerProtocol.UsageReport usage = usage();
    assertThat(usage.unhealthyNodes()).isEqualTo(1);
    assertThat(usage.activeNodes()).isZero();
    assertThat(usage.clusterCapacity()).isEqualTo(Resource.NONE);

    // The AM asks for one more; nothing is placed while the node stays unhealthy.
    AllocateResponse asked = allocate(amResponseId, List.of(ResourceRequest.any(1, GB, 1)));
    assertThat(asked.allocatedContainers()).isEmpty();
    effects.containers.expectNoMessage(Duration.ofMillis(500));
    NodeHeartbeatResponse still = heartbeat("a:1", false, REPORT, running);
    assertThat(still.nodeAction()).isEqualTo(NodeAction.NORMAL);
    assertThat(still.containersToCleanup()).isEmpty();
    effects.journal.expectNoMessage(Duration.ofMillis(200));
    effects.containers.expectNoMessage(Duration.ofMillis(300));

    heartbeat("a:1", true, "", running);
    expectMarked(NodeState.RUNNING);
    assertThat(node(0).state()).isEqualTo(NodeState.RUNNING);
    assertThat(node(0).healthReport()).isEmpty();
    assertThat(expectAllocation().request().nodeId()).as("placed once it is healthy").isEqualTo("a:1");
    assertThat(usage().unhealthyNodes()).isZero();
  }

  @Test
  void whileANodeIsUnhealthyNewContainersGoToAnotherNode() {
    String[] ids = new String[2];
    int amResponseId = anAmAndAWorkerRunningOnA(ids);
    heartbeat("a:1", false, REPORT, ContainerStatus.running(ids[0], GB), ContainerStatus.running(ids[1], GB));
    expectMarked(NodeState.UNHEALTHY);
    registerNode("b:1", 4096);

    allocate(amResponseId, List.of(ResourceRequest.any(1, GB, 1)));
    assertThat(expectAllocation().request().nodeId()).isEqualTo("b:1");
  }

  @Test
  void aSilentUnhealthyNodeIsLost() {
    String[] ids = new String[2];
    anAmAndAWorkerRunningOnA(ids);
    heartbeat("a:1", false, REPORT, ContainerStatus.running(ids[0], GB), ContainerStatus.running(ids[1], GB));
    expectMarked(NodeState.UNHEALTHY);
    // The NM expiry here is an hour.
    clock.advance(Duration.ofMinutes(61));
    expectMarked(NodeState.LOST);
    assertThat(node(0).state()).isEqualTo(NodeState.LOST);
  }

  @Test
  void aRecoveredSchedulerKeepsAJournalledUnhealthyNodeUnhealthyUntilAHealthyHeartbeat() {
    RecoveredModel died = journalOfADeadMember();
    NodeEntity.State journalled = died.nodes().get("a:1");
    var unhealthy = new NodeEntity.State(journalled.registration(), NodeState.UNHEALTHY, 1, REPORT);
    start(new RecoveredModel(died.apps(), died.containers(), Map.of("a:1", unhealthy)));
    assertThat(node(0).state()).isEqualTo(NodeState.UNHEALTHY);
    assertThat(node(0).healthReport()).isEqualTo(REPORT);
    assertThat(heartbeat("a:1", true, "").nodeAction()).as("it must re-register first").isEqualTo(NodeAction.RESYNC);

    String am = "container_e1_1700000000000_0001_01_000001";
    String worker = "container_e1_1700000000000_0001_01_000002";
    ContainerStatus[] running = {ContainerStatus.running(am, GB), ContainerStatus.running(worker, GB)};
    register("a:1", 3072, List.of(running), List.of());
    responseIds.clear();
    assertThat(node(0).state()).as("a registration says nothing of health").isEqualTo(NodeState.UNHEALTHY);
    assertThat(heartbeat("a:1", false, REPORT, running).containersToCleanup()).doesNotContain(am, worker);
    assertThat(node(0).state()).isEqualTo(NodeState.UNHEALTHY);

    heartbeat("a:1", true, "", running);
    expectMarked(NodeState.RUNNING);
    assertThat(node(0).state()).isEqualTo(NodeState.RUNNING);
  }
}
