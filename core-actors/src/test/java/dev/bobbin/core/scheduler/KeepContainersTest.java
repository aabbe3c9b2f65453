package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.app.AttemptState;
import dev.bobbin.core.app.PreemptionHistory;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/**
 * Applications that keep containers across attempts: which of an ended attempt's containers stay,
 * which are taken back, and how the next attempt learns of them and of their completions.
 */
class KeepContainersTest extends SchedulerFixture {
  private static final String SECOND = "appattempt_1700000000000_0001_000002";
  private static final ContainerLaunchContext AM_LAUNCH = new ContainerLaunchContext(List.of("am"), Map.of());

  /** The AM container, a running worker and a worker allocated but never started, all of the first attempt. */
  private record FirstAttempt(String am, String running, String unstarted) {}

  private FirstAttempt firstAttemptWithTwoWorkers(boolean keep) {
    registerNode("a:1", 8192);
    scheduler.tell(new SchedulerProtocol.AttemptAdded(APP, ATTEMPT, "default", "alice", 0, GB, AM_LAUNCH, 1, keep));
    String am = launchAm(ATTEMPT);
    registerAm(ATTEMPT);
    heartbeat("a:1", ContainerStatus.running(am, GB));
    expectContainerWrite(Write.MarkRunning.class);
    allocate(ATTEMPT, 0, List.of(ResourceRequest.any(1, GB, 2)), List.of());
    List<String> workers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      var w = expectAllocation();
      w.answer(Done.getInstance());
      workers.add(w.request().containerId());
    }
    int responseId = 1;
    int handed = 0;
    for (int i = 0; i < 20 && handed < 2; i++) {
      AllocateResponse r = allocate(ATTEMPT, responseId, List.of(), List.of());
      responseId = r.responseId();
      handed += r.allocatedContainers().size();
    }
    assertThat(handed).isEqualTo(2);
    heartbeat("a:1", ContainerStatus.running(am, GB), ContainerStatus.running(workers.get(0), GB));
    expectContainerWrite(Write.MarkRunning.class);
    return new FirstAttempt(am, workers.get(0), workers.get(1));
  }

  /** The attempt's AM container is placed, launched and recorded; returns its id. */
  private String launchAm(String attemptId) {
    var am = expectAllocation();
    assertThat(am.request().am()).isTrue();
    assertThat(am.request().attemptId()).isEqualTo(attemptId);
    am.answer(Done.getInstance());
    effects.launches.receiveMessage();
    expectAppWrite(Write.AssignAmContainer.class);
    return am.request().containerId();
  }

  /** The AM process of the first attempt dies: its container's completion is durable and its attempt reported ended. */
  private void amCrashes(FirstAttempt first, ContainerStatus... alsoReported) {
    List<ContainerStatus> statuses = new ArrayList<>(List.of(alsoReported));
    statuses.add(ContainerStatus.completed(first.am(), 137, "killed", GB));
    heartbeat("a:1", statuses.toArray(ContainerStatus[]::new));
    var done = expectCompletion();
    assertThat(done.request().containerId()).isEqualTo(first.am());
    done.answer(Done.getInstance());
    assertThat(expectAppWrite(Write.ReportAmFinished.class).attemptId()).isEqualTo(ATTEMPT);
  }

  private void nextAttempt() {
    scheduler.tell(new SchedulerProtocol.AttemptEnded(APP, ATTEMPT));
    scheduler.tell(new SchedulerProtocol.AttemptAdded(APP, SECOND, "default", "alice", 0, GB, AM_LAUNCH, 1, true));
  }

  private RegisterAmResponse registerAm(String attemptId) {
    TestProbe<SchedulerProtocol.AmOutcome<RegisterAmResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.AmRegistered(attemptId, probe.ref()));
    var outcome = probe.receiveMessage();
    assertThat(outcome.exception()).as(outcome.message()).isNull();
    return outcome.response();
  }

  private AllocateResponse allocate(String attemptId, int responseId, List<ResourceRequest> asks, List<String> release) {
    TestProbe<SchedulerProtocol.AmOutcome<AllocateResponse>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.Allocate(attemptId, new AllocateRequest(responseId, 0.5f, asks, release),
        probe.ref()));
    var outcome = probe.receiveMessage();
    assertThat(outcome.exception()).as(outcome.message()).isNull();
    return outcome.response();
  }

  /** The completions the attempt's AM is given over its next calls from response 0, each call acknowledging the last. */
  private List<String> completionsHeard(String attemptId, int calls) {
    List<String> heard = new ArrayList<>();
    int responseId = 0;
    for (int i = 0; i < calls; i++) {
      AllocateResponse r = allocate(attemptId, responseId, List.of(), List.of());
      r.completedContainerStatuses().forEach(s -> heard.add(s.containerId()));
      responseId = r.responseId();
    }
    return heard;
  }

  private static List<String> ids(List<Container> containers) {
    return containers.stream().map(Container::id).toList();
  }

  @Test
  void anEndedAttemptsRunningWorkerStaysAndItsUnstartedOneAndAmContainerAreTakenBack() {
    FirstAttempt first = firstAttemptWithTwoWorkers(true);
    amCrashes(first, ContainerStatus.running(first.running(), GB));
    nextAttempt();

    var aborted = expectCompletion();
    assertThat(aborted.request().containerId()).isEqualTo(first.unstarted());
    assertThat(aborted.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    aborted.answer(Done.getInstance());
    String secondAm = launchAm(SECOND);
    var r = heartbeat("a:1", ContainerStatus.running(first.running(), GB), ContainerStatus.running(secondAm, GB));
    assertThat(r.containersToCleanup()).contains(first.unstarted()).doesNotContain(first.running(), secondAm);

    RegisterAmResponse registered = registerAm(SECOND);
    assertThat(ids(registered.containersFromPreviousAttempts())).containsExactly(first.running());
    Container kept = registered.containersFromPreviousAttempts().get(0);
    assertThat(kept.nodeId()).isEqualTo("a:1");
    assertThat(kept.resource()).isEqualTo(GB);
    // The AM of the new attempt is given a token that lets it reach the container's NodeManager.
    var token = Tokens.verifyContainerToken(kept.containerToken(), keyId -> SECRET);
    assertThat(token.containerId()).isEqualTo(first.running());
    assertThat(token.user()).isEqualTo("alice");
    // The kept worker is the new attempt's: it may release it.
    allocate(SECOND, 0, List.of(), List.of(first.running()));
    assertThat(heartbeat("a:1", ContainerStatus.running(first.running(), GB)).containersToCleanup())
        .contains(first.running());
  }

  @Test
  void withoutKeepingContainersAnEndedAttemptsRunningWorkerIsKilled() {
    FirstAttempt first = firstAttemptWithTwoWorkers(false);
    amCrashes(first, ContainerStatus.running(first.running(), GB));
    scheduler.tell(new SchedulerProtocol.AttemptEnded(APP, ATTEMPT));
    scheduler.tell(new SchedulerProtocol.AttemptAdded(APP, SECOND, "default", "alice", 0, GB, AM_LAUNCH, 1));
    expectCompletion().answer(Done.getInstance()); // the unstarted one
    launchAm(SECOND);
    var r = heartbeat("a:1", ContainerStatus.running(first.running(), GB));
    assertThat(r.containersToCleanup()).contains(first.running(), first.unstarted());
    assertThat(registerAm(SECOND).containersFromPreviousAttempts()).isEmpty();
  }

  @Test
  void aKeptWorkersCompletionReachesTheNextAttemptOnce() {
    FirstAttempt first = firstAttemptWithTwoWorkers(true);
    amCrashes(first, ContainerStatus.running(first.running(), GB));
    nextAttempt();
    expectCompletion().answer(Done.getInstance()); // the unstarted one
    launchAm(SECOND);
    registerAm(SECOND);

    finishes(first.running());
    assertThat(completionsHeard(SECOND, 3)).containsExactly(first.running());
    var delivered = expectAppWrite(Write.RecordDeliveries.class);
    assertThat(delivered.attemptId()).isEqualTo(SECOND);
    assertThat(delivered.containerIds()).containsExactly(first.running());
  }

  /** The worker exits 0 and its completion is durable. */
  private void finishes(String worker) {
    ContainerStatus exited = ContainerStatus.completed(worker, 0, "", GB);
    heartbeat("a:1", exited);
    var done = expectCompletion();
    assertThat(done.request().containerId()).isEqualTo(worker);
    done.answer(Done.getInstance());
    heartbeatUntil(h -> assertThat(h.containersToBeRemovedFromNm()).contains(worker), exited);
  }

  @Test
  void completionsBetweenAttemptsReachTheNextAttemptOnceWithTheContainersTheyBelongTo() {
    FirstAttempt first = firstAttemptWithTwoWorkers(true);
    // The worker ends while the first attempt is still current; its AM never heard of it.
    finishes(first.running());
    amCrashes(first);
    nextAttempt();
    expectCompletion().answer(Done.getInstance()); // the unstarted one
    launchAm(SECOND);

    RegisterAmResponse registered = registerAm(SECOND);
    assertThat(ids(registered.containersFromPreviousAttempts())).containsExactly(first.running());
    assertThat(completionsHeard(SECOND, 3)).containsExactly(first.running());
    var delivered = expectAppWrite(Write.RecordDeliveries.class);
    assertThat(delivered.attemptId()).isEqualTo(SECOND);
    assertThat(delivered.containerIds()).containsExactly(first.running());
    // Once heard, it is no longer among the containers a registration lists.
    assertThat(registerAm(SECOND).containersFromPreviousAttempts()).isEmpty();
  }

  @Test
  void aRecoveredSchedulerRebuildsKeptWorkersUnderTheCurrentAttempt() {
    String am2 = "container_e1_1700000000000_0001_02_000001";
    String running = "container_e1_1700000000000_0001_01_000002";
    String unstarted = "container_e1_1700000000000_0001_01_000003";
    String endedUnheard = "container_e1_1700000000000_0001_01_000004";
    String endedHeard = "container_e1_1700000000000_0001_01_000005";
    var reg = new NodeEntity.Registration("a:1", "a", "a:1", "/default-rack", new Resource(8192, 8));
    var sub = new Submission(APP, "n", "alice", "default", 0, "YARN", List.of(), GB, AM_LAUNCH, 2, Map.of(), true);
    var firstAttempt = new Attempt(ATTEMPT, 1, AttemptState.FAILED, 1, 2, "container_e1_1700000000000_0001_01_000001",
        "a:1", "a:1", "a", 0, "", 137, "");
    var second = new Attempt(SECOND, 2, AttemptState.ALLOCATED, 2, 0, am2, "a:1", "a:1", "", -1, "", -1000, "");
    var app = new ApplicationEntity.State(APP, null, sub, AppState.ACCEPTED, FinalApplicationStatus.UNDEFINED, "", 1,
        0, List.of(firstAttempt, second), PreemptionHistory.NONE, Set.of());
    Map<String, ContainerEntity.State> containers = new HashMap<>();
    containers.put(am2, new ContainerEntity.State(alloc(am2, SECOND, true), ContainerEntity.Phase.RUNNING, 2, 3, 0,
        -1000, "", null, false));
    containers.put(running, new ContainerEntity.State(alloc(running, ATTEMPT, false), ContainerEntity.Phase.RUNNING,
        1, 2, 0, -1000, "", null, false));
    containers.put(unstarted, neverStarted(new ContainerEntity.State(alloc(unstarted, ATTEMPT, false),
        ContainerEntity.Phase.ALLOCATED, 1, 0, 0, -1000, "", null, false)));
    containers.put(endedUnheard, new ContainerEntity.State(alloc(endedUnheard, ATTEMPT, false),
        ContainerEntity.Phase.COMPLETED, 1, 2, 3, 0, "", null, false));
    containers.put(endedHeard, new ContainerEntity.State(alloc(endedHeard, ATTEMPT, false),
        ContainerEntity.Phase.COMPLETED, 1, 2, 3, 0, "", null, true));
    start(new RecoveredModel(Map.of(APP, app), containers,
        Map.of("a:1", new NodeEntity.State(reg, NodeState.RUNNING, 1, ""))));

    register("a:1", 8192, List.of(ContainerStatus.running(am2, GB), ContainerStatus.running(running, GB),
        ContainerStatus.running(unstarted, GB)), List.of());
    nmResponseId = 0;
    // The earlier attempt's allocation is not the current attempt's to start: it is killed.
    var r = heartbeat("a:1", ContainerStatus.running(am2, GB), ContainerStatus.running(running, GB),
        ContainerStatus.running(unstarted, GB));
    assertThat(r.containersToCleanup()).contains(unstarted).doesNotContain(running, am2);

    RegisterAmResponse registered = registerAm(SECOND);
    assertThat(ids(registered.containersFromPreviousAttempts())).containsExactlyInAnyOrder(running, endedUnheard);
    assertThat(completionsHeard(SECOND, 3)).containsExactly(endedUnheard);
  }

  private static ContainerEntity.Allocation alloc(String id, String attemptId, boolean am) {
    return new ContainerEntity.Allocation(id, APP, attemptId, "a:1", "a:1", GB, am ? 0 : 1, -1, am);
  }
}
