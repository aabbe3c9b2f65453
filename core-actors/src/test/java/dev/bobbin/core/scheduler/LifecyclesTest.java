package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.AppState;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/** How applications, attempts and containers come and go, and their expiries ({@link Lifecycles}). */
class LifecyclesTest extends SchedulerFixture {
  @Test
  void aNewPriorityReordersTheWaitingApplications() {
    String later = "application_1700000000000_0002";
    addAttempt();
    scheduler.tell(new SchedulerProtocol.AttemptAdded(later, "appattempt_1700000000000_0002_000001", "default", "bob",
        0, GB, new ContainerLaunchContext(List.of("am"), Map.of()), 2));
    // Raised while both wait: the later submission now goes first.
    scheduler.tell(new SchedulerProtocol.PriorityChanged(later, 5));

    registerNode("a:1", 1024);
    assertThat(expectAllocation().request().appId()).isEqualTo(later);
  }

  @Test
  void aCompletionIsDurableBeforeTheAmAndTheNmHearOfIt() {
    String id = aRunningWorker().id();
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.completed(id, 3, "exit 3", GB));
    assertThat(r.containersToBeRemovedFromNm()).doesNotContain(id);
    var complete = expectCompletion();
    assertThat(complete.request().exitStatus()).isEqualTo(3);
    complete.answer(Done.getInstance());
    // The NM keeps reporting it until the RM acknowledges, and the AM sees it exactly once.
    NodeHeartbeatResponse acked = heartbeatUntilRemoved("a:1", id);
    assertThat(acked.containersToBeRemovedFromNm()).contains(id);
  }

  @Test
  void aCompletionWhoseWriteFailedIsWrittenAgain() {
    registerNode("a:1", 4096);
    startAppWithAm();
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    AllocateResponse got = allocateUntilAllocated(1, 1);
    // Released before its start: no NodeManager reports it, so only the scheduler can write it again.
    allocateCall(got.responseId(), List.of(), List.of(worker.request().containerId()));
    var first = expectCompletion();
    first.timeOut();
    // Written again an ask timeout later.
    TestingEffects.Pending<TestingEffects.Completion, Done> again =
        expectPending(effects.containers, TestingEffects.Completion.class, Duration.ofSeconds(6));
    assertThat(again.request()).isEqualTo(first.request());
    again.answer(Done.getInstance());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anAmThatUnregisteredIsLeftToExitAndItsApplicationIsCleanedUpOnlyAfterIt() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    String amId = ids.get(0);
    String workerId = ids.get(1);

    scheduler.tell(new SchedulerProtocol.AppEnded(APP, AppState.FINISHED));
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(amId, GB), ContainerStatus.running(workerId, GB));
    assertThat(r.containersToCleanup()).containsExactly(workerId);
    assertThat(r.applicationsToCleanup()).isEmpty();

    // The AM's process exits by itself; only then are the nodes told to clean the application up.
    heartbeat("a:1", ContainerStatus.completed(amId, 0, "", GB));
    var amDone = expectCompletion();
    assertThat(amDone.request().exitStatus()).isZero();
    amDone.answer(Done.getInstance());
    NodeHeartbeatResponse cleanup = heartbeatUntil(h -> assertThat(h.applicationsToCleanup()).containsExactly(APP),
        ContainerStatus.completed(amId, 0, "", GB));
    assertThat(cleanup.containersToCleanup()).doesNotContain(amId);
  }

  @Test
  void anAmContainerStillRunningAnAmExpiryAfterItsAmUnregisteredIsKilled() {
    String amId = anAppRunningItsAmAndAWorker().get(0);
    scheduler.tell(new SchedulerProtocol.AppEnded(APP, AppState.FINISHED));
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).doesNotContain(amId);

    clock.advance(AM_EXPIRY.plusSeconds(1));
    heartbeatUntil(h -> assertThat(h.containersToCleanup()).contains(amId), ContainerStatus.running(amId, GB));
  }

  @Test
  void aKilledApplicationsAmContainerIsKilledAtOnceWithTheRest() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    scheduler.tell(new SchedulerProtocol.AppEnded(APP, AppState.KILLED));
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(ids.get(0), GB),
        ContainerStatus.running(ids.get(1), GB));
    assertThat(r.containersToCleanup()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(r.applicationsToCleanup()).containsExactly(APP);
  }

  @Test
  void anAmThatStopsCallingTimesOutAndItsAttemptFails() {
    registerNode("a:1", 4096);
    startAppWithAm();
    // Calls within the window keep it alive.
    clock.advance(AM_EXPIRY.minusMinutes(5));
    allocate(0, List.of());
    clock.advance(AM_EXPIRY.minusMinutes(5));
    effects.apps.expectNoMessage(Duration.ofMillis(400));
    // Then silence for longer than the window.
    clock.advance(Duration.ofMinutes(6));
    var expired = expectAppWrite(Write.ReportAmFinished.class);
    assertThat(expired.attemptId()).isEqualTo(ATTEMPT);
    assertThat(expired.diagnostics()).isEqualTo("ApplicationMaster for attempt " + ATTEMPT + " timed out");
  }

  @Test
  void aReleasedAllocationKeepsItsSpaceUntilTheNodeHasHeardTheKill() {
    registerNode("a:1", 2048);
    String amId = startAppWithAm();
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    AllocateResponse got = allocateUntilAllocated(1, 1);
    String workerId = worker.request().containerId();
    // The AM releases the worker before starting it, and asks for another: the node is full until it heard the kill.
    allocateCall(got.responseId(), List.of(ResourceRequest.any(1, GB, 1)), List.of(workerId));
    var released = expectCompletion();
    assertThat(released.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    released.answer(Done.getInstance());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // This heartbeat carries the kill; only the next one, without the worker running, frees its space.
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).containsExactly(workerId);
    expectContainerWrite(Write.MarkRunning.class); // the AM's first report
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    assertThat(heartbeat("a:1", ContainerStatus.running(amId, GB)).containersToCleanup()).isEmpty();
    assertThat(expectAllocation().request().nodeId()).isEqualTo("a:1");
  }

  @Test
  void anAllocationNeverStartedExpiresAndItsAmHearsItWasAborted() {
    registerNode("a:1", 4096);
    startAppWithAm();
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    assertThat(allocateUntilAllocated(1, 1).allocatedContainers()).hasSize(1);
    clock.advance(Duration.ofMinutes(11));
    var expired = expectCompletion();
    assertThat(expired.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    assertThat(expired.request().diagnostics()).contains("expired");
  }
}
