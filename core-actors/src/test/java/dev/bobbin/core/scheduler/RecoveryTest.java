package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/** A scheduler that takes over from one that died ({@link Recovery}), through the scheduler actor. */
class RecoveryTest extends SchedulerFixture {
  private static final String AM = "container_e1_1700000000000_0001_01_000001";
  private static final String WORKER = "container_e1_1700000000000_0001_01_000002";
  private static final String NEVER_STARTED = "container_e1_1700000000000_0001_01_000003";
  private static final String FINISHED = "container_e1_1700000000000_0001_01_000004";

  @Test
  void answersWhenRecoveredOnlyOnceItHasReadTheJournal() {
    CompletableFuture<RecoveredModel> recovery = new CompletableFuture<>();
    start(TestingEffects.builder().recovered(recovery));
    TestProbe<Done> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.WhenRecovered(probe.ref()));
    probe.expectNoMessage(Duration.ofMillis(300));

    recovery.complete(RecoveredModel.EMPTY);
    probe.expectMessage(Done.getInstance());
    scheduler.tell(new SchedulerProtocol.WhenRecovered(probe.ref()));
    probe.expectMessage(Done.getInstance());
  }

  @Test
  void aRecoveredSchedulerKillsAnApplicationPastItsJournalledLifetimeAndWatchesOneThatIsNot() {
    RecoveredModel died = journalOfADeadMember();
    ApplicationEntity.State journalled = died.apps().get(APP);
    // The dead member's application was submitted at 1 ms with a lifetime of 60 s: long over.
    var overdue = new ApplicationEntity.State(APP, null, journalled.submission().withLifetime(60_000),
        journalled.state(), journalled.finalStatus(), journalled.diagnostics(), journalled.startedTime(),
        journalled.finishedTime(), journalled.attempts(), journalled.preemptions(), journalled.moveQueues());
    start(new RecoveredModel(Map.of(APP, overdue), died.containers(), died.nodes()));
    assertThat(expectAppWrite(Write.ExpireLifetime.class).appId()).isEqualTo(APP);
  }

  @Test
  void aRecoveredSchedulerKillsAnApplicationOnceTheJournalledLifetimeRunsOut() {
    RecoveredModel died = journalOfADeadMember();
    ApplicationEntity.State journalled = died.apps().get(APP);
    // Its lifetime ends ten minutes from now, within its AM's expiry.
    long lifetime = clock.millis() + Duration.ofMinutes(10).toMillis() - journalled.startedTime();
    var running = new ApplicationEntity.State(APP, null, journalled.submission().withLifetime(lifetime),
        journalled.state(), journalled.finalStatus(), journalled.diagnostics(), journalled.startedTime(),
        journalled.finishedTime(), journalled.attempts(), journalled.preemptions(), journalled.moveQueues());
    start(new RecoveredModel(Map.of(APP, running), died.containers(), died.nodes()));
    effects.apps.expectNoMessage(Duration.ofMillis(500));
    clock.advance(Duration.ofMinutes(10).plusSeconds(1));
    assertThat(expectAppWrite(Write.ExpireLifetime.class).appId()).isEqualTo(APP);
  }

  @Test
  void aRecoveredSchedulerLeavesTheAmContainerOfAnUnregisteredAmToExit() {
    RecoveredModel died = journalOfADeadMember();
    var unregistered = died.apps().get(APP).apply(new ApplicationEntity.AmUnregistered(ATTEMPT,
        FinalApplicationStatus.SUCCEEDED, "", "", 5));
    start(new RecoveredModel(Map.of(APP, unregistered), died.containers(), died.nodes()));
    register("a:1", 3072, List.of(ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB)), List.of());
    nmResponseId = 0;

    // The ended application's worker is killed; its AM container is left to exit.
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB));
    assertThat(r.containersToCleanup()).contains(WORKER).doesNotContain(AM);
    assertThat(r.applicationsToCleanup()).as("not before its AM container exits").isEmpty();
    heartbeat("a:1", ContainerStatus.completed(AM, 0, "", GB), ContainerStatus.completed(WORKER, -106, "", GB));
    List.of(expectCompletion(), expectCompletion()).forEach(c -> c.answer(Done.getInstance()));
    heartbeatUntil(h -> assertThat(h.applicationsToCleanup()).containsExactly(APP),
        ContainerStatus.completed(AM, 0, "", GB), ContainerStatus.completed(WORKER, -106, "", GB));
  }

  @Test
  void aRecoveredSchedulerKeepsRunningWorkCountsItAndAbortsWhatNoNodeReports() {
    start(journalOfADeadMember());
    // The node must re-register before anything else.
    assertThat(heartbeat("a:1").nodeAction()).isEqualTo(NodeAction.RESYNC);
    register("a:1", 3072, List.of(ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB)), List.of());
    nmResponseId = 0;
    // The never-started worker is aborted once every known node re-synced; the running ones are not killed.
    var lost = expectCompletion();
    assertThat(lost.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    // The heartbeat tells the NM to kill the aborted worker (its AM might still start it); not the running ones.
    NodeHeartbeatResponse r = heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB));
    assertThat(r.containersToCleanup()).containsExactly(NEVER_STARTED);
    // The next one, without it running, frees its space.
    r = heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB));
    assertThat(r.containersToCleanup()).isEmpty();
    // The AM must register again; its work is still counted on the node, so a 1 GB ask fits only once the lost one is freed.
    assertThat(allocateCall(7, List.of(), List.of()).exception()).isEqualTo("ApplicationMasterNotRegisteredException");
    registerAm();
    lost.answer(Done.getInstance());
    // A worker that finished while no AM could hear of it is delivered now, and marked delivered.
    AllocateResponse first = allocate(0, List.of(ResourceRequest.any(1, GB, 2)));
    assertThat(first.completedContainerStatuses()).extracting(ContainerStatus::containerId).contains(FINISHED);
    // The new allocation; nothing is marked delivered until the AM shows it has the response.
    var fresh = expectAllocation();
    assertThat(fresh.request().containerId()).startsWith("container_e");
    assertThat(fresh.request().containerId()).isNotIn(WORKER, NEVER_STARTED);
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    effects.apps.expectNoMessage(Duration.ofMillis(300));
    // Asking with that response's id: one record of every status it carried (the aborted worker may be among them).
    allocate(first.responseId(), List.of());
    var marked = expectAppWrite(Write.RecordDeliveries.class);
    assertThat(marked.containerIds()).containsExactlyElementsOf(first.completedContainerStatuses().stream()
        .map(ContainerStatus::containerId).toList());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anAmContainerNeverStartedBeforeTheFailoverIsLaunchedAgainOnceItsNodeResynced() {
    RecoveredModel full = journalOfADeadMember();
    Map<String, ContainerEntity.State> live = new HashMap<>(full.containers());
    live.put(AM, neverStarted(live.get(AM)));
    live.remove(WORKER);
    live.remove(NEVER_STARTED);
    start(TestingEffects.builder().epoch(7)
        .recovered(CompletableFuture.completedFuture(new RecoveredModel(full.apps(), live, full.nodes()))));
    long newEpoch = registerNode("a:1", 3072);
    // The same container, with a token of this scheduler's epoch, which the node now follows.
    AmLauncher.Launch launch = effects.launches.receiveMessage();
    assertThat(launch.container().id()).isEqualTo(AM);
    assertThat(launch.attemptId()).isEqualTo(ATTEMPT);
    assertThat(newEpoch).isEqualTo(7);
    assertThat(Tokens.verifyContainerToken(launch.container().containerToken(), SECRET).rmIdentifier())
        .isEqualTo(newEpoch);
    // Its AM token too carries the epoch, and is signed with the AM-token key, not the container-token one.
    assertThat(Tokens.verifyAmToken(launch.amToken(), AM_SECRET))
        .isEqualTo(new Tokens.AmTokenIdentifier(ATTEMPT, launch.user(), 2, newEpoch));
    // It is not aborted, and still counts against its node.
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    assertThat(node(0).used()).isEqualTo(GB);
  }

  @Test
  void anAmContainerOnANodeThatNeverResyncedIsAbortedNotLaunched() {
    RecoveredModel full = journalOfADeadMember();
    var other = new NodeEntity.Registration("b:1", "b", "b:1", "/default-rack", new Resource(3072, 8));
    start(new RecoveredModel(full.apps(), Map.of(AM, neverStarted(full.containers().get(AM))),
        Map.of("a:1", full.nodes().get("a:1"), "b:1", new NodeEntity.State(other, NodeState.RUNNING, 1, ""))));
    // Only b re-syncs; the recovery wait (10 s) runs out with a:1 still silent.
    registerNode("b:1", 3072);
    clock.advance(Duration.ofSeconds(11));
    var lost = expectCompletion();
    assertThat(lost.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    effects.launches.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aRunningContainerTheJournalHoldsButTheModelLacksIsAdoptedAndAStrangerIsKilled() {
    // The recovered model lacks the worker (say, the previous scheduler wrote it after this one read the journal).
    String stranger = "container_e1_1700000000000_0001_01_000009";
    RecoveredModel full = journalOfADeadMember();
    Map<String, ContainerEntity.State> partial = new HashMap<>(full.containers());
    ContainerEntity.State journalled = partial.remove(WORKER);
    start(new RecoveredModel(full.apps(), partial, full.nodes()));
    register("a:1", 3072, List.of(ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB),
        ContainerStatus.running(stranger, GB)), List.of());
    nmResponseId = 0;
    // The scheduler asks the two containers' entities, in the order the NM reported them.
    TestingEffects.Pending<String, Optional<ContainerEntity.Report>> askWorker =
        expectPending(effects.containers, String.class);
    TestingEffects.Pending<String, Optional<ContainerEntity.Report>> askStranger =
        expectPending(effects.containers, String.class);
    assertThat(List.of(askWorker.request(), askStranger.request())).containsExactly(WORKER, stranger);
    askWorker.answer(Optional.of(new ContainerEntity.Report(journalled.allocation(), journalled.phase(), 1, 2, 0, -1000,
        "", null)));
    askStranger.answer(Optional.empty());
    // The answers and the end of the recovery wait reach the scheduler in either order relative to a
    // heartbeat: the never-started worker's space is held until a heartbeat after its kill.
    testKit.createTestProbe().awaitAssert(() -> {
      assertThat(heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB),
          ContainerStatus.running(stranger, GB)).containersToCleanup()).containsExactly(stranger);
      // The adopted worker counts against its node beside the AM; the never-started one was aborted.
      SchedulerProtocol.NodeReport node = node(0);
      assertThat(node.used()).isEqualTo(new Resource(2048, 2));
      assertThat(node.numContainers()).isEqualTo(2);
      return null;
    });
  }

  @Test
  void anAmContainerItsApplicationNeverRecordedIsStillTheAttemptsAm() {
    start(journalOfADeadMember(""));
    register("a:1", 3072, List.of(ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB)), List.of());
    // The application hears which container is its AM; no second AM is placed.
    var assigned = expectAppWrite(Write.AssignAmContainer.class);
    assertThat(assigned.allocation().containerId()).isEqualTo(AM);
    var lost = expectCompletion();
    assertThat(lost.request().exitStatus()).isEqualTo(ExitStatus.ABORTED);
    lost.answer(Done.getInstance());
    nmResponseId = 0;
    heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB));
    heartbeat("a:1", ContainerStatus.running(AM, GB), ContainerStatus.running(WORKER, GB));
    effects.containers.expectNoMessage(Duration.ofMillis(500));
  }
}
