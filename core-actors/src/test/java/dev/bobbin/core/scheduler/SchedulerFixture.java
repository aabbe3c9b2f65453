package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.app.AttemptState;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.keys.SigningKeys;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * The scheduler actor with its effects port replaced by {@link TestingEffects}: the calls and the
 * answers that each scheduler test drives, on one node {@code a:1} unless a test says otherwise. One
 * actor system per test class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SchedulerFixture {
  // Every message is serialized, as it would be between members: the scheduler is a cluster singleton.
  final ActorTestKit testKit = ActorTestKit.create(ConfigFactory
      .parseString("pekko.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final String APP = "application_1700000000000_0001";
  static final String ATTEMPT = "appattempt_1700000000000_0001_000001";
  static final Resource GB = new Resource(1024, 1);
  static final Duration AM_EXPIRY = Duration.ofMinutes(20);
  static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  static final byte[] AM_SECRET = "fedcba9876543210fedcba9876543210".getBytes(StandardCharsets.UTF_8);
  static final SchedulerSettings FIFO = new SchedulerSettings(SchedulerPolicy.FIFO, List.of("default"), 1024, 1,
      8192, 4, Duration.ofMillis(100), 2000, 0.5);

  TestingEffects effects;
  ActorRef<SchedulerProtocol.Command> scheduler;
  /** The hosts the host lists no longer track; none unless a test says otherwise. */
  java.util.function.Predicate<String> untrackedHost = host -> false;
  static final Duration UNTRACKED_REMOVAL = Duration.ofSeconds(60);
  int nmResponseId;
  TestingClock clock;

  /** Wall-clock time that a test can move forward. */
  static final class TestingClock extends Clock {
    private volatile long offsetMillis;

    void advance(Duration d) {
      offsetMillis += d.toMillis();
    }

    @Override
    public long millis() {
      return System.currentTimeMillis() + offsetMillis;
    }

    @Override
    public java.time.Instant instant() {
      return java.time.Instant.ofEpochMilli(millis());
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @AfterAll
  void stopTestKit() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    start(TestingEffects.builder());
  }

  @AfterEach
  void stopScheduler() {
    testKit.stop(scheduler);
  }

  void start(RecoveredModel model) {
    start(TestingEffects.builder().recovered(java.util.concurrent.CompletableFuture.completedFuture(model)));
  }

  void start(TestingEffects.Builder builder) {
    start(builder, FIFO, null);
  }

  void start(TestingEffects.Builder builder, SchedulerSettings settings, FairSetup fair) {
    effects = builder.build(testKit);
    clock = new TestingClock();
    TestingEffects port = effects;
    SchedulerDeps deps = new SchedulerDeps(settings, new PolicyConfig(settings, fair),
        SigningKeys.fixed(SECRET, AM_SECRET), Duration.ofSeconds(1),
        Duration.ofHours(1), AM_EXPIRY, Duration.ofMinutes(10), Duration.ofSeconds(3), clock, Duration.ofSeconds(10),
        1.0, ctx -> port, untrackedHost, UNTRACKED_REMOVAL);
    // A test that starts its own scheduler replaces setUp's.
    if (scheduler != null) testKit.stop(scheduler);
    scheduler = testKit.spawn(Scheduler.create(deps));
    nmResponseId = 0;
  }

  static SchedulerSettings fifoWithInFlightBound(int maxAllocationsInFlight) {
    return new SchedulerSettings(SchedulerPolicy.FIFO, List.of("default"), 1024, 1, 8192, 4, Duration.ofMillis(100),
        maxAllocationsInFlight, 0.5);
  }

  long registerNode(String nodeId, long memory) {
    return register(nodeId, memory, List.of(), List.of());
  }

  long register(String nodeId, long memory, List<ContainerStatus> containers, List<String> runningApps) {
    TestProbe<Long> epoch = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.NodeRegistered(new NodeEntity.Registration(nodeId, nodeId.split(":")[0],
        nodeId, "/default-rack", new Resource(memory, 8)), containers, runningApps, epoch.ref()));
    long e = epoch.receiveMessage();
    assertThat(e).isPositive();
    return e;
  }

  NodeHeartbeatResponse heartbeat(String nodeId, ContainerStatus... statuses) {
    TestProbe<NodeHeartbeatResponse> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.NodeHeartbeat(new NodeHeartbeatRequest(nodeId, nmResponseId, List.of(statuses),
        true, ""), probe.ref()));
    NodeHeartbeatResponse r = probe.receiveMessage();
    nmResponseId = r.responseId();
    return r;
  }

  /** Heartbeats with these statuses until the answer satisfies the check; returns that answer. */
  NodeHeartbeatResponse heartbeatUntil(Consumer<NodeHeartbeatResponse> check, ContainerStatus... statuses) {
    NodeHeartbeatResponse[] last = new NodeHeartbeatResponse[1];
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(10), () -> {
      last[0] = heartbeat("a:1", statuses);
      check.accept(last[0]);
      return null;
    });
    return last[0];
  }

  NodeHeartbeatResponse heartbeatUntilRemoved(String node, String id) {
    for (int i = 0; i < 20; i++) {
      NodeHeartbeatResponse r = heartbeat(node, ContainerStatus.completed(id, 3, "exit 3", GB));
      if (r.containersToBeRemovedFromNm().contains(id)) return r;
    }
    throw new AssertionError("never acknowledged " + id);
  }

  // What reaches the entities

  TestingEffects.Pending<ContainerEntity.Allocation, Done> expectAllocation() {
    return expectPending(effects.containers, ContainerEntity.Allocation.class);
  }

  TestingEffects.Pending<TestingEffects.Completion, Done> expectCompletion() {
    return expectPending(effects.containers, TestingEffects.Completion.class);
  }

  /** The next call at {@code probe}, which must be a pending call about a {@code request}. */
  static <T, R> TestingEffects.Pending<T, R> expectPending(TestProbe<Object> probe, Class<T> request) {
    return expectPending(probe, request, Duration.ofSeconds(3));
  }

  @SuppressWarnings("unchecked")
  static <T, R> TestingEffects.Pending<T, R> expectPending(TestProbe<Object> probe, Class<T> request, Duration within) {
    TestingEffects.Pending<T, R> p = probe.expectMessageClass(TestingEffects.Pending.class, within);
    assertThat(p.request()).isInstanceOf(request);
    return p;
  }

  <W> W expectContainerWrite(Class<W> type) {
    return effects.containers.expectMessageClass(type);
  }

  <W> W expectAppWrite(Class<W> type) {
    return effects.apps.expectMessageClass(type);
  }

  // The AM's side

  AllocateResponse allocate(int responseId, List<ResourceRequest> asks) {
    SchedulerProtocol.AmOutcome<AllocateResponse> o = allocateCall(responseId, asks, List.of());
    assertThat(o.exception()).as(o.message()).isNull();
    return o.response();
  }

  SchedulerProtocol.AmOutcome<AllocateResponse> allocateCall(int responseId, List<ResourceRequest> asks,
      List<String> release) {
    TestProbe<SchedulerProtocol.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.Allocate(ATTEMPT, new AllocateRequest(responseId, 0.5f, asks, release),
        probe.ref()));
    return probe.receiveMessage();
  }

  SchedulerProtocol.AmOutcome<RegisterAmResponse> registerAm() {
    TestProbe<SchedulerProtocol.AmOutcome<RegisterAmResponse>> reg = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.AmRegistered(ATTEMPT, reg.ref()));
    return reg.receiveMessage();
  }

  void addAttempt() {
    scheduler.tell(new SchedulerProtocol.AttemptAdded(APP, ATTEMPT, "default", "alice", 0, GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 1));
  }

  /** The AM asks for one 1 GB container; returns its allocation's write. */
  TestingEffects.Pending<ContainerEntity.Allocation, Done> askOneWorker() {
    allocate(0, List.of(ResourceRequest.any(1, GB, 1)));
    return expectAllocation();
  }

  /** Adds the app, persists and launches its AM container, and registers the AM; returns its id. */
  String startAppWithAm() {
    addAttempt();
    var am = expectAllocation();
    assertThat(am.request().am()).isTrue();
    effects.launches.expectNoMessage(Duration.ofMillis(200));
    am.answer(Done.getInstance());
    AmLauncher.Launch launch = effects.launches.receiveMessage();
    assertThat(launch.container().id()).isEqualTo(am.request().containerId());
    expectAppWrite(Write.AssignAmContainer.class);
    assertThat(registerAm().response().queue()).isEqualTo("default");
    return am.request().containerId();
  }

  AllocateResponse allocateUntilAllocated(int fromResponseId, int count) {
    int id = fromResponseId;
    List<Container> got = new ArrayList<>();
    AllocateResponse last = null;
    for (int i = 0; i < 20 && got.size() < count; i++) {
      last = allocate(id, List.of());
      id = last.responseId();
      got.addAll(last.allocatedContainers());
    }
    return new AllocateResponse(last.responseId(), got, last.completedContainerStatuses(), last.limit(),
        last.numClusterNodes(), null);
  }

  /** A worker the AM has been given and the NM on a:1 runs; responseId is the AM's next. */
  record Worker(String id, int responseId) {}

  Worker aRunningWorker() {
    registerNode("a:1", 4096);
    startAppWithAm();
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    String id = worker.request().containerId();
    AllocateResponse delivered = allocateUntilAllocated(1, 1);
    assertThat(delivered.allocatedContainers()).hasSize(1);
    heartbeat("a:1", ContainerStatus.running(id, GB));
    expectContainerWrite(Write.MarkRunning.class);
    return new Worker(id, delivered.responseId());
  }

  /** An application whose AM container and one worker run on a:1; returns their ids. */
  List<String> anAppRunningItsAmAndAWorker() {
    registerNode("a:1", 4096);
    String amId = startAppWithAm();
    heartbeat("a:1", ContainerStatus.running(amId, GB));
    expectContainerWrite(Write.MarkRunning.class);
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    String workerId = worker.request().containerId();
    allocateUntilAllocated(1, 1);
    heartbeat("a:1", ContainerStatus.running(amId, GB), ContainerStatus.running(workerId, GB));
    expectContainerWrite(Write.MarkRunning.class);
    return List.of(amId, workerId);
  }

  /** The next node write, which must mark {@code nodeId} {@code state}; the scheduler's clock saves are not about nodes. */
  Write.MarkNode expectMarked(String nodeId, NodeState state) {
    List<Write> fished = effects.journal.fishForMessage(Duration.ofSeconds(3), w -> w instanceof Write.MarkNode
        ? FishingOutcomes.complete() : FishingOutcomes.continueAndIgnore());
    Write.MarkNode m = (Write.MarkNode) fished.get(fished.size() - 1);
    assertThat(m.nodeId()).isEqualTo(nodeId);
    assertThat(m.state()).isEqualTo(state);
    return m;
  }

  SchedulerProtocol.UsageReport usage() {
    TestProbe<SchedulerProtocol.UsageReport> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetUsage(probe.ref()));
    return probe.receiveMessage();
  }

  SchedulerProtocol.NodeReport node(int index) {
    TestProbe<SchedulerProtocol.NodesReport> nodes = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetNodes(nodes.ref()));
    return nodes.receiveMessage().nodes().get(index);
  }

  // A journal of a member that died

  /** Node a:1 (3 GB) runs the AM and one worker; a second worker was never started; a third finished. */
  static RecoveredModel journalOfADeadMember() {
    return journalOfADeadMember("container_e1_1700000000000_0001_01_000001");
  }

  /** @param amRecorded the AM container the Application entity recorded, or "" if it never heard of it */
  static RecoveredModel journalOfADeadMember(String amRecorded) {
    var reg = new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack", new Resource(3072, 8));
    var node = new NodeEntity.State(reg, NodeState.RUNNING, 1, "");
    var sub = new Submission(APP, "n", "alice", "default", 0, "YARN", List.of(), GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 2);
    var attempt = new Attempt(ATTEMPT, 1, AttemptState.RUNNING, 1, 0, amRecorded, "a:1", "a:1", "a", 0, "", -1000, "");
    var app = new ApplicationEntity.State(APP, null, sub, AppState.RUNNING, FinalApplicationStatus.UNDEFINED, "", 1, 0,
        List.of(attempt), PreemptionHistory.NONE, Set.of());
    Map<String, ContainerEntity.State> live = new HashMap<>();
    for (int i = 1; i <= 3; i++) {
      String id = "container_e1_1700000000000_0001_01_00000" + i;
      var alloc = new ContainerEntity.Allocation(id, APP, ATTEMPT, "a:1", "a:1", GB, i == 1 ? 0 : 1, -1, i == 1);
      var phase = i == 3 ? ContainerEntity.Phase.ALLOCATED : ContainerEntity.Phase.RUNNING;
      live.put(id, new ContainerEntity.State(alloc, phase, 1, 2, 0, -1000, "", null, false));
    }
    var finished = new ContainerEntity.Allocation("container_e1_1700000000000_0001_01_000004", APP, ATTEMPT, "a:1",
        "a:1", GB, 1, -1, false);
    live.put(finished.containerId(), new ContainerEntity.State(finished, ContainerEntity.Phase.COMPLETED, 1, 2, 3, 0,
        "", null, false));
    return new RecoveredModel(Map.of(APP, app), live, Map.of("a:1", node));
  }

  /** The container allocated a moment ago (well within the allocation expiry) and never started. */
  static ContainerEntity.State neverStarted(ContainerEntity.State journalled) {
    return new ContainerEntity.State(journalled.allocation(), ContainerEntity.Phase.ALLOCATED,
        System.currentTimeMillis(), 0, 0, -1000, "", null, false);
  }
}
