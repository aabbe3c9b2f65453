package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.FifoPolicy;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.PersistenceTestKitPlugin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scheduler actor with its entities and launcher replaced by probes. */
class SchedulerTest {
  // Every message is serialized, as it would be between members: the scheduler is a cluster singleton.
  private static final ActorTestKit testKit = ActorTestKit.create(PersistenceTestKitPlugin.getInstance().config()
      .withFallback(ConfigFactory.parseString("pekko.actor.serialize-messages = on"))
      .withFallback(ConfigFactory.load()));
  private static final String APP = "application_1700000000000_0001";
  private static final String ATTEMPT = "appattempt_1700000000000_0001_000001";
  private static final Resource GB = new Resource(1024, 1);
  private static final Duration AM_EXPIRY = Duration.ofMinutes(20);

  private TestProbe<ContainerEntity.Command> containers;
  private TestProbe<ApplicationEntity.Command> apps;
  private TestProbe<AmLauncher.Command> launcher;
  private ActorRef<Scheduler.Command> scheduler;
  private int nmResponseId;
  private TestingClock clock;

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
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    start(RecoveredModel.EMPTY);
  }

  @AfterEach
  void stopScheduler() {
    testKit.stop(scheduler);
  }

  private void start(RecoveredModel model) {
    start(model, 2000);
  }

  private void start(RecoveredModel model, int maxAllocationsInFlight) {
    start(CompletableFuture.completedFuture(model), maxAllocationsInFlight);
  }

  private void start(CompletableFuture<RecoveredModel> recovery, int maxAllocationsInFlight) {
    containers = testKit.createTestProbe();
    apps = testKit.createTestProbe();
    launcher = testKit.createTestProbe();
    SchedulerSettings settings = new SchedulerSettings(SchedulerPolicy.FIFO, List.of("default"), 1024, 1, 8192, 4,
        Duration.ofMillis(100), maxAllocationsInFlight, 0.5);
    clock = new TestingClock();
    SchedulerDeps deps = new SchedulerDeps(settings, new FifoPolicy(), 1700000000000L,
        "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(1),
        Duration.ofHours(1), AM_EXPIRY, Duration.ofMinutes(10), Duration.ofSeconds(3),
        id -> containers.ref(), id -> apps.ref(), launcher.ref(), clock, null, () -> null,
        Duration.ofSeconds(10), 1.0, () -> recovery);
    // A test that starts its own scheduler replaces setUp's: two alive at once would share the epoch journal.
    if (scheduler != null) testKit.stop(scheduler);
    scheduler = testKit.spawn(Scheduler.create(deps));
    nmResponseId = 0;
  }

  private void registerNode(String nodeId, long memory) {
    TestProbe<Long> epoch = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration(nodeId, nodeId.split(":")[0], nodeId,
        "/default-rack", new Resource(memory, 8)), List.of(), List.of(), epoch.ref()));
    assertThat(epoch.receiveMessage()).isPositive();
  }

  private NodeHeartbeatResponse heartbeat(String nodeId, ContainerStatus... statuses) {
    TestProbe<NodeHeartbeatResponse> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeHeartbeat(new NodeHeartbeatRequest(nodeId, nmResponseId, List.of(statuses), true, ""),
        probe.ref()));
    NodeHeartbeatResponse r = probe.receiveMessage();
    nmResponseId = r.responseId();
    return r;
  }

  /** The AM asks for one 1 GB container; returns its allocation's write. */
  private ContainerEntity.Allocate askOneWorker() {
    allocate(0, List.of(ResourceRequest.any(1, GB, 1)));
    return expectAllocate();
  }

  private ContainerEntity.Allocate expectAllocate() {
    return containers.expectMessageClass(ContainerEntity.Allocate.class);
  }

  private AllocateResponse allocate(int responseId, List<ResourceRequest> asks) {
    TestProbe<Scheduler.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.Allocate(ATTEMPT, new AllocateRequest(responseId, 0.5f, asks, List.of()), probe.ref()));
    Scheduler.AmOutcome<AllocateResponse> o = probe.receiveMessage();
    assertThat(o.exception()).as(o.message()).isNull();
    return o.response();
  }

  /** Adds the app, persists and launches its AM container, and registers the AM. */
  private String startAppWithAm() {
    scheduler.tell(new Scheduler.AttemptAdded(APP, ATTEMPT, "default", "alice", 0, GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 1));
    ContainerEntity.Allocate am = expectAllocate();
    assertThat(am.allocation().am()).isTrue();
    launcher.expectNoMessage(Duration.ofMillis(200));
    am.replyTo().tell(StatusReply.ack());
    AmLauncher.Launch launch = launcher.expectMessageClass(AmLauncher.Launch.class);
    assertThat(launch.container().id()).isEqualTo(am.allocation().containerId());
    apps.expectMessageClass(ApplicationEntity.AssignAmContainer.class);
    TestProbe<Scheduler.AmOutcome<RegisterAmResponse>> reg = testKit.createTestProbe();
    scheduler.tell(new Scheduler.AmRegistered(ATTEMPT, reg.ref()));
    assertThat(reg.receiveMessage().response().queue()).isEqualTo("default");
    return am.allocation().containerId();
  }

  @Test
  void answersWhenRecoveredOnlyOnceItHasReadTheJournal() {
    CompletableFuture<RecoveredModel> recovery = new CompletableFuture<>();
    start(recovery, 2000);
    TestProbe<Done> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.WhenRecovered(probe.ref()));
    probe.expectNoMessage(Duration.ofMillis(300));

    recovery.complete(RecoveredModel.EMPTY);
    probe.expectMessage(Done.getInstance());
    scheduler.tell(new Scheduler.WhenRecovered(probe.ref()));
    probe.expectMessage(Done.getInstance());
  }

  @Test
  void theAmIsLaunchedOnlyAfterItsContainerIsDurable() {
    registerNode("a:1", 4096);
    startAppWithAm();
  }

  @Test
  void inFlightAllocationsCountAgainstTheNodeSoItIsNeverOverCommitted() {
    registerNode("a:1", 3072);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 4)));
    // 3 GB node, 1 GB AM: room for two more, even though neither write has been acknowledged yet.
    List<ContainerEntity.Allocate> pending = new ArrayList<>();
    pending.add(expectAllocate());
    pending.add(expectAllocate());
    containers.expectNoMessage(Duration.ofMillis(300));
    heartbeat("a:1");
    containers.expectNoMessage(Duration.ofMillis(300));
    // Nothing reaches the AM before the writes are durable.
    assertThat(allocate(1, List.of()).allocatedContainers()).isEmpty();
    pending.forEach(a -> a.replyTo().tell(StatusReply.ack()));
    AllocateResponse delivered = allocateUntilAllocated(2, 2);
    assertThat(delivered.allocatedContainers()).extracting(c -> c.id())
        .containsExactlyInAnyOrderElementsOf(pending.stream().map(a -> a.allocation().containerId()).toList());
    assertThat(delivered.allocatedContainers()).allSatisfy(c -> assertThat(c.containerToken()).isNotBlank());
  }

  @Test
  void aPassPlacesNoMoreThanTheAllocationsInFlightAllowAndGoesOnAsWritesComplete() {
    start(RecoveredModel.EMPTY, 2);
    registerNode("a:1", 8192);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 5)));
    ContainerEntity.Allocate first = expectAllocate();
    ContainerEntity.Allocate second = expectAllocate();
    heartbeat("a:1");
    containers.expectNoMessage(Duration.ofMillis(300));
    // Each answered write lets one more through; the rest wait as pending asks.
    first.replyTo().tell(StatusReply.ack());
    ContainerEntity.Allocate third = expectAllocate();
    containers.expectNoMessage(Duration.ofMillis(300));
    second.replyTo().tell(StatusReply.error("journal unavailable"));
    third.replyTo().tell(StatusReply.ack());
    List<ContainerEntity.Allocate> rest = List.of(expectAllocate(), expectAllocate());
    containers.expectNoMessage(Duration.ofMillis(300));
    // The failed write is asked for again: three more in all, never more than two at once.
    rest.forEach(a -> a.replyTo().tell(StatusReply.ack()));
    expectAllocate().replyTo().tell(StatusReply.ack());
    containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anAllocationWhoseWriteGotNoAnswerIsWithdrawnAndAskedForAgain() {
    registerNode("a:1", 8192);
    startAppWithAm();
    ContainerEntity.Allocate unanswered = askOneWorker();
    // No answer within the ask timeout (3 s here): the write may still land, so the entity is told
    // to end the container, and the ask is placed again under a new id.
    var withdraw = containers.expectMessageClass(ContainerEntity.Withdraw.class, Duration.ofSeconds(6));
    withdraw.replyTo().tell(StatusReply.ack());
    heartbeat("a:1");
    ContainerEntity.Allocate again = expectAllocate();
    assertThat(again.allocation().containerId()).isNotEqualTo(unanswered.allocation().containerId());
  }

  @Test
  void aThrottledSchedulerWaitsUntilHalfTheBoundIsFreeBeforeItsNextPass() {
    start(RecoveredModel.EMPTY, 4);
    registerNode("a:1", 8192);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 6)));
    List<ContainerEntity.Allocate> firstFour = List.of(expectAllocate(), expectAllocate(), expectAllocate(),
        expectAllocate());
    containers.expectNoMessage(Duration.ofMillis(300));
    // One answered write is not worth a pass (under fair, O(apps x containers)) for one placement.
    firstFour.get(0).replyTo().tell(StatusReply.ack());
    heartbeat("a:1");
    containers.expectNoMessage(Duration.ofMillis(300));
    // At half the bound the next pass places what fits under it again: the last two.
    firstFour.get(1).replyTo().tell(StatusReply.ack());
    expectAllocate();
    expectAllocate();
    containers.expectNoMessage(Duration.ofMillis(300));
  }

  private AllocateResponse allocateUntilAllocated(int fromResponseId, int count) {
    int id = fromResponseId;
    List<dev.bobbin.protocol.am.Container> got = new ArrayList<>();
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
  private record Worker(String id, int responseId) {}

  private Worker aRunningWorker() {
    registerNode("a:1", 4096);
    startAppWithAm();
    ContainerEntity.Allocate worker = askOneWorker();
    worker.replyTo().tell(StatusReply.ack());
    String id = worker.allocation().containerId();
    AllocateResponse delivered = allocateUntilAllocated(1, 1);
    assertThat(delivered.allocatedContainers()).hasSize(1);
    heartbeat("a:1", ContainerStatus.running(id, GB));
    containers.expectMessageClass(ContainerEntity.MarkRunning.class);
    return new Worker(id, delivered.responseId());
  }

  @Test
  void aCompletionIsDurableBeforeTheAmAndTheNmHearOfIt() {
    String id = aRunningWorker().id();
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.completed(id, 3, "exit 3", GB));
    assertThat(r.containersToBeRemovedFromNm()).doesNotContain(id);
    ContainerEntity.Complete complete = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(complete.exitStatus()).isEqualTo(3);
    complete.replyTo().tell(StatusReply.ack());
    // The NM keeps reporting it until the RM acknowledges, and the AM sees it exactly once.
    NodeHeartbeatResponse acked = heartbeatUntilRemoved("a:1", id);
    assertThat(acked.containersToBeRemovedFromNm()).contains(id);
  }

  @Test
  void aCompletionIsMarkedDeliveredOnlyOnceTheAmShowsItHasItAndIsSentAgainIfItRegistersAgain() {
    Worker worker = aRunningWorker();
    String id = worker.id();
    int responseId = worker.responseId();
    heartbeat("a:1", ContainerStatus.completed(id, 0, "", GB));
    containers.expectMessageClass(ContainerEntity.Complete.class).replyTo().tell(StatusReply.ack());
    AllocateResponse withIt = null;
    for (int i = 0; i < 20 && (withIt == null || withIt.completedContainerStatuses().isEmpty()); i++) {
      withIt = allocate(responseId, List.of());
      responseId = withIt.responseId();
    }
    assertThat(withIt.completedContainerStatuses()).extracting(ContainerStatus::containerId).containsExactly(id);
    apps.expectNoMessage(Duration.ofMillis(300));

    // That response never reached the AM, which registers again (its member died, say): sent again.
    TestProbe<Scheduler.AmOutcome<RegisterAmResponse>> reg = testKit.createTestProbe();
    scheduler.tell(new Scheduler.AmRegistered(ATTEMPT, reg.ref()));
    reg.receiveMessage();
    AllocateResponse again = allocate(0, List.of());
    assertThat(again.completedContainerStatuses()).extracting(ContainerStatus::containerId).containsExactly(id);
    apps.expectNoMessage(Duration.ofMillis(300));
    allocate(again.responseId(), List.of());
    ApplicationEntity.RecordDeliveries delivered = apps.expectMessageClass(ApplicationEntity.RecordDeliveries.class);
    assertThat(delivered.attemptId()).isEqualTo(ATTEMPT);
    assertThat(delivered.containerIds()).containsExactly(id);
    // Asking again with nothing new delivered records nothing.
    allocate(again.responseId() + 1, List.of());
    apps.expectNoMessage(Duration.ofMillis(300));
    containers.expectNoMessage(Duration.ofMillis(300));
  }

  private NodeHeartbeatResponse heartbeatUntilRemoved(String node, String id) {
    for (int i = 0; i < 20; i++) {
      NodeHeartbeatResponse r = heartbeat(node, ContainerStatus.completed(id, 3, "exit 3", GB));
      if (r.containersToBeRemovedFromNm().contains(id)) return r;
    }
    throw new AssertionError("never acknowledged " + id);
  }

  /** An application whose AM container and one worker run on a:1; returns their ids. */
  private List<String> anAppRunningItsAmAndAWorker() {
    registerNode("a:1", 4096);
    String amId = startAppWithAm();
    heartbeat("a:1", ContainerStatus.running(amId, GB));
    containers.expectMessageClass(ContainerEntity.MarkRunning.class);
    ContainerEntity.Allocate worker = askOneWorker();
    worker.replyTo().tell(StatusReply.ack());
    String workerId = worker.allocation().containerId();
    allocateUntilAllocated(1, 1);
    heartbeat("a:1", ContainerStatus.running(amId, GB), ContainerStatus.running(workerId, GB));
    containers.expectMessageClass(ContainerEntity.MarkRunning.class);
    return List.of(amId, workerId);
  }

  /** Heartbeats with these statuses until the answer satisfies the check; returns that answer. */
  private NodeHeartbeatResponse heartbeatUntil(java.util.function.Consumer<NodeHeartbeatResponse> check,
      ContainerStatus... statuses) {
    NodeHeartbeatResponse[] last = new NodeHeartbeatResponse[1];
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      last[0] = heartbeat("a:1", statuses);
      check.accept(last[0]);
      return null;
    });
    return last[0];
  }

  @Test
  void anAmThatUnregisteredIsLeftToExitAndItsApplicationIsCleanedUpOnlyAfterIt() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    String amId = ids.get(0);
    String workerId = ids.get(1);

    scheduler.tell(new Scheduler.AppEnded(APP, AppState.FINISHED));
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(amId, GB), ContainerStatus.running(workerId, GB));
    assertThat(r.containersToCleanup()).containsExactly(workerId);
    assertThat(r.applicationsToCleanup()).isEmpty();

    // The AM's process exits by itself; only then are the nodes told to clean the application up.
    heartbeat("a:1", ContainerStatus.completed(amId, 0, "", GB));
    ContainerEntity.Complete amDone = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(amDone.exitStatus()).isZero();
    amDone.replyTo().tell(StatusReply.ack());
    NodeHeartbeatResponse cleanup = heartbeatUntil(h -> assertThat(h.applicationsToCleanup()).containsExactly(APP),
        ContainerStatus.completed(amId, 0, "", GB));
    assertThat(cleanup.containersToCleanup()).doesNotContain(amId);
  }

  @Test
  void anAmContainerStillRunningAnAmExpiryAfterItsAmUnregisteredIsKilled() {
    String amId = anAppRunningItsAmAndAWorker().get(0);
    scheduler.tell(new Scheduler.AppEnded(APP, AppState.FINISHED));
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).doesNotContain(amId);

    clock.advance(AM_EXPIRY.plusSeconds(1));
    heartbeatUntil(h -> assertThat(h.containersToCleanup()).contains(amId), ContainerStatus.running(amId, GB));
  }

  @Test
  void aKilledApplicationsAmContainerIsKilledAtOnceWithTheRest() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    scheduler.tell(new Scheduler.AppEnded(APP, AppState.KILLED));
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(ids.get(0), GB),
        ContainerStatus.running(ids.get(1), GB));
    assertThat(r.containersToCleanup()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(r.applicationsToCleanup()).containsExactly(APP);
  }

  @Test
  void anEndedApplicationIsCleanedUpOnTheNodesItRanOnOrThatReportedItOnly() {
    registerNode("a:1", 4096);
    startAppWithAm();
    TestProbe<Long> epoch = testKit.createTestProbe();
    for (String nodeId : List.of("b:1", "c:1")) {
      scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration(nodeId, nodeId.split(":")[0], nodeId,
          "/default-rack", new Resource(4096, 8)), List.of(), nodeId.equals("b:1") ? List.of(APP) : List.of(),
          epoch.ref()));
      epoch.receiveMessage();
    }

    scheduler.tell(new Scheduler.AppEnded(APP, AppState.KILLED));
    assertThat(heartbeat("a:1").applicationsToCleanup()).as("its AM ran there").containsExactly(APP);
    nmResponseId = 0;
    assertThat(heartbeat("b:1").applicationsToCleanup()).as("it reported the application").containsExactly(APP);
    nmResponseId = 0;
    assertThat(heartbeat("c:1").applicationsToCleanup()).isEmpty();
  }

  @Test
  void aNodeIsToldToCleanUpAReportedApplicationTheSchedulerDoesNotFollowOnceItSaysItEnded() {
    String betweenAttempts = "application_1795502072393_0002";
    TestProbe<Long> epoch = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("b:1", "b", "b:1", "/default-rack",
        new Resource(4096, 8)), List.of(), List.of(APP, betweenAttempts), epoch.ref()));
    epoch.receiveMessage();
    apps.expectMessageClass(ApplicationEntity.GetEnded.class).replyTo().tell(new ApplicationEntity.Ended(APP, true));
    apps.expectMessageClass(ApplicationEntity.GetEnded.class).replyTo()
        .tell(new ApplicationEntity.Ended(betweenAttempts, false));

    List<String> told = new ArrayList<>();
    nmResponseId = 0;
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      told.addAll(heartbeat("b:1").applicationsToCleanup());
      assertThat(told).containsExactly(APP);
      return null;
    });
    scheduler.tell(new Scheduler.AppEnded(betweenAttempts, AppState.KILLED));
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      told.addAll(heartbeat("b:1").applicationsToCleanup());
      assertThat(told).containsExactly(APP, betweenAttempts);
      return null;
    });
  }

  @Test
  void theAmHearsTheClusterHeadroomAndItsUsableNodes() {
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);
    startAppWithAm();
    int[] responseId = {0};
    testKit.createTestProbe().awaitAssert(() -> {
      AllocateResponse r = allocate(responseId[0], List.of());
      responseId[0] = r.responseId();
      // Two nodes of 4 GB and 8 vcores, less the AM's 1 GB and 1 vcore.
      assertThat(r.limit()).isEqualTo(new Resource(7168, 15));
      assertThat(r.numClusterNodes()).isEqualTo(2);
      return null;
    });
  }

  @Test
  void anAmThatStopsCallingTimesOutAndItsAttemptFails() {
    registerNode("a:1", 4096);
    startAppWithAm();
    // Calls within the window keep it alive.
    clock.advance(AM_EXPIRY.minusMinutes(5));
    allocate(0, List.of());
    clock.advance(AM_EXPIRY.minusMinutes(5));
    apps.expectNoMessage(Duration.ofMillis(400));
    // Then silence for longer than the window.
    clock.advance(Duration.ofMinutes(6));
    ApplicationEntity.AmContainerFinished expired = apps.expectMessageClass(ApplicationEntity.AmContainerFinished.class);
    assertThat(expired.attemptId()).isEqualTo(ATTEMPT);
    assertThat(expired.diagnostics()).isEqualTo("ApplicationMaster for attempt " + ATTEMPT + " timed out");
  }

  @Test
  void aReleasedAllocationKeepsItsSpaceUntilTheNodeHasHeardTheKill() {
    registerNode("a:1", 2048);
    String amId = startAppWithAm();
    ContainerEntity.Allocate worker = askOneWorker();
    worker.replyTo().tell(StatusReply.ack());
    AllocateResponse got = allocateUntilAllocated(1, 1);
    String workerId = worker.allocation().containerId();
    // The AM releases the worker before starting it, and asks for another: the node is full until it heard the kill.
    TestProbe<Scheduler.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.Allocate(ATTEMPT, new AllocateRequest(got.responseId(), 0.5f,
        List.of(ResourceRequest.any(1, GB, 1)), List.of(workerId)), probe.ref()));
    probe.receiveMessage();
    ContainerEntity.Complete released = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(released.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.ABORTED);
    released.replyTo().tell(StatusReply.ack());
    containers.expectNoMessage(Duration.ofMillis(300));
    // This heartbeat carries the kill; only the next one, without the worker running, frees its space.
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).containsExactly(workerId);
    containers.expectMessageClass(ContainerEntity.MarkRunning.class); // the AM's first report
    containers.expectNoMessage(Duration.ofMillis(300));
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).isEmpty();
    assertThat(expectAllocate().allocation().nodeId()).isEqualTo("a:1");
  }

  @Test
  void anUnknownNodeIsToldToResync() {
    NodeHeartbeatResponse r = heartbeat("ghost:1");
    assertThat(r.nodeAction()).isEqualTo(dev.bobbin.protocol.NodeAction.RESYNC);
  }

  @Test
  void allocateBeforeRegisteringAsksTheAmToRegister() {
    registerNode("a:1", 4096);
    scheduler.tell(new Scheduler.AttemptAdded(APP, ATTEMPT, "default", "alice", 0, GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 1));
    TestProbe<Scheduler.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.Allocate(ATTEMPT, new AllocateRequest(0, 0, List.of(), List.of()), probe.ref()));
    assertThat(probe.receiveMessage().exception()).isEqualTo("ApplicationMasterNotRegisteredException");
  }

  /** The journal of a member that died: node a:1 (2 GB) runs the AM and one worker; a second worker was never started. */
  private static RecoveredModel journalOfADeadMember() {
    return journalOfADeadMember("container_e1_1700000000000_0001_01_000001");
  }

  /** @param amRecorded the AM container the Application entity recorded, or "" if it never heard of it */
  private static RecoveredModel journalOfADeadMember(String amRecorded) {
    var reg = new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack", new Resource(3072, 8));
    var node = new NodeEntity.State(reg, dev.bobbin.protocol.NodeState.RUNNING, 1, "");
    var sub = new dev.bobbin.core.app.Submission(APP, "n", "alice", "default", 0, "YARN", List.of(), GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 2);
    var attempt = new dev.bobbin.core.app.Attempt(ATTEMPT, 1, dev.bobbin.core.app.AttemptState.RUNNING, 1, 0,
        amRecorded, "a:1", "a:1", "a", 0, "", -1000, "");
    var app = new ApplicationEntity.State(APP, sub, dev.bobbin.core.app.AppState.RUNNING,
        dev.bobbin.protocol.FinalApplicationStatus.UNDEFINED, "", 1, 0, List.of(attempt),
        dev.bobbin.core.app.PreemptionHistory.NONE);
    Map<String, ContainerEntity.State> live = new java.util.HashMap<>();
    for (int i = 1; i <= 3; i++) {
      String id = "container_e1_1700000000000_0001_01_00000" + i;
      var alloc = new ContainerEntity.Allocation(id, APP, ATTEMPT, "a:1", "a:1", GB, i == 1 ? 0 : 1, -1, i == 1);
      var phase = i == 3 ? ContainerEntity.Phase.ALLOCATED : ContainerEntity.Phase.RUNNING;
      live.put(id, new ContainerEntity.State(alloc, phase, 1, 2, 0, -1000, "", null, false));
    }
    var finished = new ContainerEntity.Allocation("container_e1_1700000000000_0001_01_000004", APP, ATTEMPT, "a:1", "a:1",
        GB, 1, -1, false);
    live.put(finished.containerId(), new ContainerEntity.State(finished, ContainerEntity.Phase.COMPLETED, 1, 2, 3, 0,
        "", null, false));
    return new RecoveredModel(Map.of(APP, app), live, Map.of("a:1", node));
  }

  @Test
  void aRecoveredSchedulerLeavesTheAmContainerOfAnUnregisteredAmToExit() {
    RecoveredModel died = journalOfADeadMember();
    var unregistered = died.apps().get(APP).apply(new ApplicationEntity.AmUnregistered(ATTEMPT,
        dev.bobbin.protocol.FinalApplicationStatus.SUCCEEDED, "", "", 5));
    start(new RecoveredModel(Map.of(APP, unregistered), died.containers(), died.nodes()));
    String am = "container_e1_1700000000000_0001_01_000001";
    String worker = "container_e1_1700000000000_0001_01_000002";
    TestProbe<Long> done = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack",
        new Resource(3072, 8)), List.of(ContainerStatus.running(am, GB), ContainerStatus.running(worker, GB)),
        List.of(), done.ref()));
    done.receiveMessage();
    nmResponseId = 0;

    // The ended application's worker is killed; its AM container is left to exit.
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(am, GB), ContainerStatus.running(worker, GB));
    assertThat(r.containersToCleanup()).contains(worker).doesNotContain(am);
    assertThat(r.applicationsToCleanup()).as("not before its AM container exits").isEmpty();
    heartbeat("a:1", ContainerStatus.completed(am, 0, "", GB), ContainerStatus.completed(worker, -106, "", GB));
    containers.receiveSeveralMessages(2).forEach(c -> ((ContainerEntity.Complete) c).replyTo().tell(StatusReply.ack()));
    heartbeatUntil(h -> assertThat(h.applicationsToCleanup()).containsExactly(APP),
        ContainerStatus.completed(am, 0, "", GB), ContainerStatus.completed(worker, -106, "", GB));
  }

  @Test
  void aRecoveredSchedulerKeepsRunningWorkCountsItAndAbortsWhatNoNodeReports() {
    start(journalOfADeadMember());
    // The node must re-register before anything else.
    assertThat(heartbeat("a:1").nodeAction()).isEqualTo(dev.bobbin.protocol.NodeAction.RESYNC);
    TestProbe<Long> done = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack",
        new Resource(3072, 8)), List.of(ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB)), List.of(), done.ref()));
    done.receiveMessage();
    nmResponseId = 0;
    // The never-started worker is aborted once every known node re-synced; the running ones are not killed.
    ContainerEntity.Complete lost = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(lost.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.ABORTED);
    // The heartbeat tells the NM to kill the aborted worker (its AM might still start it); not the running ones.
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB));
    assertThat(r.containersToCleanup()).containsExactly("container_e1_1700000000000_0001_01_000003");
    // The next one, without it running, frees its space.
    r = heartbeat("a:1", ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB));
    assertThat(r.containersToCleanup()).isEmpty();
    // The AM must register again; its work is still counted on the node, so a 1 GB ask fits only once the lost one is freed.
    TestProbe<Scheduler.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.Allocate(ATTEMPT, new AllocateRequest(7, 0, List.of(), List.of()), probe.ref()));
    assertThat(probe.receiveMessage().exception()).isEqualTo("ApplicationMasterNotRegisteredException");
    TestProbe<Scheduler.AmOutcome<RegisterAmResponse>> reg = testKit.createTestProbe();
    scheduler.tell(new Scheduler.AmRegistered(ATTEMPT, reg.ref()));
    reg.receiveMessage();
    lost.replyTo().tell(StatusReply.ack());
    // A worker that finished while no AM could hear of it is delivered now, and marked delivered.
    AllocateResponse first = allocate(0, List.of(ResourceRequest.any(1, GB, 2)));
    assertThat(first.completedContainerStatuses()).extracting(ContainerStatus::containerId)
        .contains("container_e1_1700000000000_0001_01_000004");
    // The new allocation; nothing is marked delivered until the AM shows it has the response.
    ContainerEntity.Allocate fresh = expectAllocate();
    assertThat(fresh.allocation().containerId()).startsWith("container_e");
    assertThat(fresh.allocation().containerId()).isNotIn("container_e1_1700000000000_0001_01_000002",
        "container_e1_1700000000000_0001_01_000003");
    containers.expectNoMessage(Duration.ofMillis(300));
    apps.expectNoMessage(Duration.ofMillis(300));
    // Asking with that response's id: one record of every status it carried (the aborted worker may be among them).
    allocate(first.responseId(), List.of());
    ApplicationEntity.RecordDeliveries marked = apps.expectMessageClass(ApplicationEntity.RecordDeliveries.class);
    assertThat(marked.containerIds()).containsExactlyElementsOf(first.completedContainerStatuses().stream()
        .map(ContainerStatus::containerId).toList());
    containers.expectNoMessage(Duration.ofMillis(300));
  }

  /** The container allocated a moment ago (well within the allocation expiry) and never started. */
  private static ContainerEntity.State neverStarted(ContainerEntity.State journalled) {
    return new ContainerEntity.State(journalled.allocation(), ContainerEntity.Phase.ALLOCATED,
        System.currentTimeMillis(), 0, 0, -1000, "", null, false);
  }

  @Test
  void anAmContainerNeverStartedBeforeTheFailoverIsLaunchedAgainOnceItsNodeResynced() {
    String am = "container_e1_1700000000000_0001_01_000001";
    RecoveredModel full = journalOfADeadMember();
    Map<String, ContainerEntity.State> live = new java.util.HashMap<>(full.containers());
    ContainerEntity.State journalled = live.get(am);
    live.put(am, neverStarted(journalled));
    live.remove("container_e1_1700000000000_0001_01_000002");
    live.remove("container_e1_1700000000000_0001_01_000003");
    start(new RecoveredModel(full.apps(), live, full.nodes()));
    TestProbe<Long> epoch = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack",
        new Resource(3072, 8)), List.of(), List.of(), epoch.ref()));
    long newEpoch = epoch.receiveMessage();
    // The same container, with a token of this scheduler's epoch, which the node now follows.
    AmLauncher.Launch launch = launcher.expectMessageClass(AmLauncher.Launch.class);
    assertThat(launch.container().id()).isEqualTo(am);
    assertThat(launch.attemptId()).isEqualTo(ATTEMPT);
    assertThat(Tokens.verifyContainerToken(launch.container().containerToken(),
        "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8)).rmIdentifier()).isEqualTo(newEpoch);
    // It is not aborted, and still counts against its node.
    containers.expectNoMessage(Duration.ofMillis(300));
    TestProbe<Scheduler.NodesReport> nodesProbe = testKit.createTestProbe();
    scheduler.tell(new Scheduler.GetNodes(nodesProbe.ref()));
    assertThat(nodesProbe.receiveMessage().nodes().get(0).used()).isEqualTo(GB);
  }

  @Test
  void anAmContainerOnANodeThatNeverResyncedIsAbortedNotLaunched() {
    String am = "container_e1_1700000000000_0001_01_000001";
    RecoveredModel full = journalOfADeadMember();
    ContainerEntity.State journalled = full.containers().get(am);
    var other = new NodeEntity.Registration("b:1", "b", "b:1", "/default-rack", new Resource(3072, 8));
    start(new RecoveredModel(full.apps(),
        Map.of(am, neverStarted(journalled)),
        Map.of("a:1", full.nodes().get("a:1"),
            "b:1", new NodeEntity.State(other, dev.bobbin.protocol.NodeState.RUNNING, 1, ""))));
    // Only b re-syncs; the recovery wait (10 s) runs out with a:1 still silent.
    TestProbe<Long> epoch = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(other, List.of(), List.of(), epoch.ref()));
    epoch.receiveMessage();
    clock.advance(Duration.ofSeconds(11));
    ContainerEntity.Complete lost = containers.expectMessageClass(ContainerEntity.Complete.class, Duration.ofSeconds(3));
    assertThat(lost.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.ABORTED);
    launcher.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aRunningContainerTheJournalHoldsButTheModelLacksIsAdoptedAndAStrangerIsKilled() {
    // The recovered model lacks worker 2 (say, the previous scheduler wrote it after this one read the journal).
    String worker = "container_e1_1700000000000_0001_01_000002";
    String stranger = "container_e1_1700000000000_0001_01_000009";
    RecoveredModel full = journalOfADeadMember();
    Map<String, ContainerEntity.State> partial = new java.util.HashMap<>(full.containers());
    ContainerEntity.State journalled = partial.remove(worker);
    start(new RecoveredModel(full.apps(), partial, full.nodes()));
    TestProbe<Long> done = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack",
        new Resource(3072, 8)), List.of(ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running(worker, GB), ContainerStatus.running(stranger, GB)), List.of(), done.ref()));
    done.receiveMessage();
    nmResponseId = 0;
    // The scheduler asks the two containers' entities, in the order the NM reported them.
    ContainerEntity.Get askWorker = containers.expectMessageClass(ContainerEntity.Get.class);
    ContainerEntity.Get askStranger = containers.expectMessageClass(ContainerEntity.Get.class);
    askWorker.replyTo().tell(StatusReply.success(new ContainerEntity.Report(journalled.allocation(),
        journalled.phase(), 1, 2, 0, -1000, "", null)));
    askStranger.replyTo().tell(StatusReply.error("container " + stranger + " not found"));
    // The answers and the end of the recovery wait reach the scheduler in either order relative to a
    // heartbeat: the never-started worker 3's space is held until a heartbeat after its kill.
    TestProbe<Scheduler.NodesReport> nodesProbe = testKit.createTestProbe();
    nodesProbe.awaitAssert(() -> {
      assertThat(heartbeat("a:1", ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
          ContainerStatus.running(worker, GB), ContainerStatus.running(stranger, GB)).containersToCleanup())
          .containsExactly(stranger);
      // The adopted worker counts against its node beside the AM; worker 3 was aborted.
      scheduler.tell(new Scheduler.GetNodes(nodesProbe.ref()));
      Scheduler.NodeReport node = nodesProbe.receiveMessage().nodes().get(0);
      assertThat(node.used()).isEqualTo(new Resource(2048, 2));
      assertThat(node.numContainers()).isEqualTo(2);
      return null;
    });
  }

  @Test
  void anAmContainerItsApplicationNeverRecordedIsStillTheAttemptsAm() {
    start(journalOfADeadMember(""));
    TestProbe<Long> done = testKit.createTestProbe();
    scheduler.tell(new Scheduler.NodeRegistered(new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack",
        new Resource(3072, 8)), List.of(ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB)), List.of(), done.ref()));
    done.receiveMessage();
    // The application hears which container is its AM; no second AM is placed.
    ApplicationEntity.AssignAmContainer assigned = apps.expectMessageClass(ApplicationEntity.AssignAmContainer.class);
    assertThat(assigned.containerId()).isEqualTo("container_e1_1700000000000_0001_01_000001");
    ContainerEntity.Complete lost = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(lost.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.ABORTED);
    lost.replyTo().tell(StatusReply.ack());
    nmResponseId = 0;
    heartbeat("a:1", ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB));
    heartbeat("a:1", ContainerStatus.running("container_e1_1700000000000_0001_01_000001", GB),
        ContainerStatus.running("container_e1_1700000000000_0001_01_000002", GB));
    containers.expectNoMessage(Duration.ofMillis(500));
  }

  @Test
  void anAllocationNeverStartedExpiresAndItsAmHearsItWasAborted() {
    registerNode("a:1", 4096);
    startAppWithAm();
    ContainerEntity.Allocate worker = askOneWorker();
    worker.replyTo().tell(StatusReply.ack());
    assertThat(allocateUntilAllocated(1, 1).allocatedContainers()).hasSize(1);
    clock.advance(Duration.ofMinutes(11));
    ContainerEntity.Complete expired = containers.expectMessageClass(ContainerEntity.Complete.class);
    assertThat(expired.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.ABORTED);
    assertThat(expired.diagnostics()).contains("expired");
  }
}
