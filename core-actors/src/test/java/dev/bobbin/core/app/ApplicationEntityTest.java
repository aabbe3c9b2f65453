package dev.bobbin.core.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.EntityTestKits;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.core.scheduler.ToScheduler;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ApplicationEntityTest {
  private static final ActorTestKit testKit = ActorTestKit.create(EntityTestKits.config());
  private static final String APP = "application_1700000000000_0001";
  private static final String ATTEMPT1 = "appattempt_1700000000000_0001_000001";
  private static final String ATTEMPT2 = "appattempt_1700000000000_0001_000002";
  private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_700_000_100_000L), ZoneOffset.UTC);

  private TestProbe<SchedulerProtocol.Command> scheduler;
  private EventSourcedBehaviorTestKit<ApplicationEntity.Command, ApplicationEntity.Event, ApplicationEntity.State> kit;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  @BeforeEach
  void setUp() {
    scheduler = testKit.createTestProbe();
    kit = EventSourcedBehaviorTestKit.create(testKit.system(), ApplicationEntity.create(APP, new ToScheduler(scheduler.ref()), CLOCK, 100));
    kit.clear();
  }

  private static Submission submission(int maxAttempts) {
    return submission("alice", maxAttempts);
  }

  private static Submission submission(String user, int maxAttempts) {
    return new Submission(APP, "shell", user, "default", 0, "YARN", List.of("t"), new Resource(1024, 1),
        new ContainerLaunchContext(List.of("echo hi"), Map.of("K", "V")), maxAttempts);
  }

  private void issue(String caller) {
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue(caller, r)).reply().isSuccess()).isTrue();
  }

  private AppReport submit(int maxAttempts) {
    issue("alice");
    var result = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(submission(maxAttempts), r));
    assertThat(result.reply().isSuccess()).isTrue();
    return result.reply().getValue();
  }

  private ApplicationEntity.SubmitChecked check(Submission s) {
    var checked = kit.<ApplicationEntity.SubmitChecked>runCommand(r -> new ApplicationEntity.CheckSubmit(s, r));
    assertThat(checked.hasNoEvents()).isTrue();
    return checked.reply();
  }

  private String refusal(Submission s) {
    var refused = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(s, r));
    assertThat(refused.hasNoEvents()).isTrue();
    return refused.reply().getError().getMessage();
  }

  @Test
  void anIdIsIssuedOnceToOneCallerAndShowsNothingUntilSubmitted() {
    var issued = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue("alice", r));
    assertThat(issued.reply().isSuccess()).isTrue();
    assertThat(issued.events()).containsExactly(new ApplicationEntity.Issued("alice", CLOCK.millis()));
    assertThat(kit.<StatusReply<AppReport>>runCommand(ApplicationEntity.Get::new).reply().isError()).isTrue();
    assertThat(kit.<ApplicationEntity.Ended>runCommand(ApplicationEntity.GetEnded::new).reply().ended()).isTrue();

    var again = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue("alice", r));
    assertThat(again.reply().isSuccess()).isTrue();
    assertThat(again.hasNoEvents()).isTrue();
    var other = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue("bob", r));
    assertThat(other.reply().getError().getMessage()).contains("issued already");
    assertThat(other.hasNoEvents()).isTrue();
    assertThat(kit.restart().state().issuedTo()).isEqualTo("alice");
    scheduler.expectNoMessage();
  }

  @Test
  void keepingContainersAcrossAttemptsIsJournalledAndToldToTheSchedulerWithEveryAttempt() {
    issue("alice");
    Submission s = submission(2);
    Submission keeps = new Submission(APP, s.name(), s.user(), s.queue(), s.priority(), s.applicationType(), s.tags(),
        s.amResource(), s.amLaunch(), s.maxAttempts(), Map.of(), true);
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(keeps, r));
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class).keepContainers()).isTrue();
    assertThat(kit.restart().state().submission().keepContainers()).isTrue();

    String first = kit.getState().currentAttempt().attemptId();
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(first, 137, "killed", r));
    scheduler.expectMessageClass(SchedulerProtocol.AttemptEnded.class);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class).keepContainers()).isTrue();
  }

  @Test
  void anIdNeverIssuedTakesNoSubmission() {
    assertThat(check(submission(2)).verdict()).isEqualTo(SubmitVerdict.NOT_ISSUED);
    assertThat(refusal(submission(2))).contains(APP).contains("was not issued by this cluster");
    assertThat(kit.getState().exists()).isFalse();
    scheduler.expectNoMessage();
  }

  @Test
  void onlyTheUserTheIdWasIssuedToMaySubmitUnderIt() {
    issue("alice");
    assertThat(check(submission("bob", 2)).verdict()).isEqualTo(SubmitVerdict.ISSUED_TO_ANOTHER);
    assertThat(refusal(submission("bob", 2))).contains("not issued to user bob");
    assertThat(check(submission(2)).verdict()).isEqualTo(SubmitVerdict.FRESH);
    AppReport report = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(submission(2), r))
        .reply().getValue();
    assertThat(report.user()).isEqualTo("alice");
    // Once used, the id stays the user's: another user's submission is refused the same way.
    assertThat(check(submission("bob", 2)).verdict()).isEqualTo(SubmitVerdict.ISSUED_TO_ANOTHER);
    assertThat(refusal(submission("bob", 2))).contains("not issued to user bob");
  }

  @Test
  void aRepeatIsAnsweredWithTheApplicationAndADifferentSubmissionIsRefused() {
    AppReport first = submit(2);
    ApplicationEntity.SubmitChecked repeat = check(submission(2));
    assertThat(repeat.verdict()).isEqualTo(SubmitVerdict.REPEATED);
    assertThat(repeat.report()).isEqualTo(first);
    assertThat(check(submission(1)).verdict()).isEqualTo(SubmitVerdict.USED_OTHERWISE);
    assertThat(refusal(submission(1))).contains("used by a different submission");
    assertThat(kit.getState().submission().maxAttempts()).isEqualTo(2);
  }

  @Test
  void anApplicationJournalledBeforeIdsWereIssuedBelongsToItsSubmitter() {
    kit.initialize(new ApplicationEntity.Submitted(submission(2), 1), new ApplicationEntity.AttemptStarted(ATTEMPT1, 1, 1));
    assertThat(kit.getState().issuedTo()).isNull();
    assertThat(check(submission(2)).verdict()).isEqualTo(SubmitVerdict.REPEATED);
    assertThat(check(submission("bob", 2)).verdict()).isEqualTo(SubmitVerdict.ISSUED_TO_ANOTHER);
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.Issue("alice", r)).reply().isError()).isTrue();
  }

  @Test
  void submissionIsAcceptedWithAFirstAttemptAndTheSchedulerHearsOfIt() {
    AppReport report = submit(2);
    assertThat(report.state()).isEqualTo(AppState.ACCEPTED);
    assertThat(report.attempts()).extracting(Attempt::attemptId).containsExactly(ATTEMPT1);
    assertThat(report.startedTime()).isEqualTo(CLOCK.millis());
    SchedulerProtocol.AttemptAdded added = scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    assertThat(added.attemptId()).isEqualTo(ATTEMPT1);
    assertThat(added.amResource()).isEqualTo(new Resource(1024, 1));
  }

  @Test
  void theSubmissionsAclsAreKeptAndReported() {
    Map<ApplicationAccessType, String> acls = Map.of(ApplicationAccessType.VIEW_APP, "bob eng",
        ApplicationAccessType.MODIFY_APP, " ");
    Submission s = submission(2);
    Submission withAcls = new Submission(s.appId(), s.name(), s.user(), s.queue(), s.priority(), s.applicationType(),
        s.tags(), s.amResource(), s.amLaunch(), s.maxAttempts(), acls);
    issue(s.user());
    var result = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(withAcls, r));
    assertThat(result.reply().getValue().acls()).isEqualTo(acls);
    kit.restart();
    var got = kit.<StatusReply<AppReport>>runCommand(ApplicationEntity.Get::new);
    assertThat(got.reply().getValue().acls()).isEqualTo(acls);
    assertThat(submission(2).acls()).as("none given").isEmpty();
  }

  @Test
  void submittingAgainAnswersWithTheApplicationAndWritesNothing() {
    AppReport first = submit(2);
    var again = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(submission(2), r));
    assertThat(again.reply().isSuccess()).isTrue();
    assertThat(again.reply().getValue()).isEqualTo(first);
    assertThat(again.hasNoEvents()).isTrue();
  }

  @Test
  void deliveriesAreOneEventThatChangesNothingShownAndNothingOnceTheApplicationEnded() {
    submit(2);
    AppReport before = kit.<StatusReply<AppReport>>runCommand(ApplicationEntity.Get::new).reply().getValue();
    List<String> ids = List.of("container_1700000000000_0001_01_000002", "container_1700000000000_0001_01_000003");
    var recorded = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordDeliveries(ATTEMPT1, ids, r));
    assertThat(recorded.reply().isSuccess()).isTrue();
    assertThat(recorded.events()).containsExactly(new ApplicationEntity.CompletionsDelivered(ATTEMPT1, ids));
    assertThat(kit.restart().state().report()).isEqualTo(before);

    var none = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordDeliveries(ATTEMPT1, List.of(), r));
    assertThat(none.reply().isSuccess()).isTrue();
    assertThat(none.hasNoEvents()).isTrue();
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var ended = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordDeliveries(ATTEMPT1, ids, r));
    assertThat(ended.reply().isSuccess()).isTrue();
    assertThat(ended.hasNoEvents()).isTrue();
  }

  @Test
  void deliveriesForAnUnknownApplicationAreRefused() {
    var r = kit.<StatusReply<Done>>runCommand(replyTo -> new ApplicationEntity.RecordDeliveries(ATTEMPT1,
        List.of("container_1700000000000_0001_01_000002"), replyTo));
    assertThat(r.reply().isError()).isTrue();
    assertThat(r.hasNoEvents()).isTrue();
  }

  @Test
  void unknownApplicationIsNotFound() {
    var get = kit.<StatusReply<AppReport>>runCommand(ApplicationEntity.Get::new);
    assertThat(get.reply().getError().getMessage()).isEqualTo("app with id: " + APP + " not found");
  }

  @Test
  void anApplicationSaysItEndedWhenUnknownOrFinalAndNotWhileLive() {
    var unknown = kit.<ApplicationEntity.Ended>runCommand(ApplicationEntity.GetEnded::new);
    assertThat(unknown.reply()).isEqualTo(new ApplicationEntity.Ended(APP, true));
    submit(2);
    var live = kit.<ApplicationEntity.Ended>runCommand(ApplicationEntity.GetEnded::new);
    assertThat(live.reply()).isEqualTo(new ApplicationEntity.Ended(APP, false));
    assertThat(live.hasNoEvents()).isTrue();
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var killed = kit.<ApplicationEntity.Ended>runCommand(ApplicationEntity.GetEnded::new);
    assertThat(killed.reply()).isEqualTo(new ApplicationEntity.Ended(APP, true));
  }

  @Test
  void registerThenUnregisterFinishesWithTheAmsFinalStatus() {
    submit(2);
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AssignAmContainer(ATTEMPT1,
        "container_1700000000000_0001_01_000001", "h:1", "h:1", r));
    var reg = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.RegisterAm(ATTEMPT1, "h", 0, "", r));
    assertThat(reg.reply().getValue().state()).isEqualTo(AppState.RUNNING);
    var fin = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UnregisterAm(ATTEMPT1,
        FinalApplicationStatus.SUCCEEDED, "all good", "", r));
    assertThat(fin.reply().getValue().state()).isEqualTo(AppState.FINISHED);
    assertThat(fin.reply().getValue().finalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AppEnded.class).state()).isEqualTo(AppState.FINISHED);
  }

  @Test
  void aRegisterThatArrivesAgainForARegisteredAttemptAnswersAsTheFirstAndWritesNothing() {
    submit(2);
    var first = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.RegisterAm(ATTEMPT1, "h", 7, "http://t", r));
    assertThat(first.events()).hasSize(1);

    // The AM's retry, or a register relayed late by a member that was cut off.
    var again = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.RegisterAm(ATTEMPT1, "other", 8, "", r));

    assertThat(again.hasNoEvents()).isTrue();
    assertThat(again.reply().getValue()).isEqualTo(first.reply().getValue());
    assertThat(again.state().currentAttempt().trackingUrl()).isEqualTo("http://t");
  }

  @Test
  void amExitWithoutUnregisterStartsANewAttemptUntilAttemptsRunOut() {
    submit(2);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(ATTEMPT1, 1, "boom", r));
    assertThat(kit.getState().currentAttempt().attemptId()).isEqualTo(ATTEMPT2);
    assertThat(kit.getState().attempts().get(0).state()).isEqualTo(AttemptState.FAILED);
    assertThat(kit.getState().state()).isEqualTo(AppState.ACCEPTED);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptEnded.class);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class).attemptId()).isEqualTo(ATTEMPT2);

    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(ATTEMPT2, 137, "", r));
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
    assertThat(kit.getState().finalStatus()).isEqualTo(FinalApplicationStatus.FAILED);
    assertThat(kit.getState().diagnostics()).contains("failed 2 times").contains("exitCode: 137");
  }

  @Test
  void anUnmanagedApplicationsAttemptWaitsLaunchedForItsAmAndItsFailureFailsTheApplication() {
    issue("alice");
    Submission unmanaged = submission(3).withUnmanagedAm(true);
    var submitted = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(unmanaged, r));
    assertThat(submitted.reply().isSuccess()).isTrue();
    // No AM container is asked for: the attempt waits LAUNCHED for the AM its client runs.
    assertThat(kit.getState().currentAttempt().state()).isEqualTo(AttemptState.LAUNCHED);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class).unmanagedAm()).isTrue();
    assertThat(kit.restart().state().submission().unmanagedAm()).isTrue();

    // Its AM stops calling in: the RM cannot start it again, so the application fails at once,
    // however many attempts it was allowed.
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(ATTEMPT1, -1000,
        "ApplicationMaster for attempt " + ATTEMPT1 + " timed out", r));
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
    assertThat(kit.getState().attempts()).hasSize(1);
    assertThat(kit.getState().diagnostics()).startsWith("Unmanaged application " + APP + " failed due to");
  }

  @Test
  void anAttemptTheClusterEndedDoesNotUseUpAnAttempt() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    // As in YARN: preempted, aborted (lost in a failover), failed disks or killed by the RM are not the AM's fault.
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(ATTEMPT1,
        dev.bobbin.protocol.ExitStatus.ABORTED, "lost", r));
    assertThat(kit.getState().state()).isEqualTo(AppState.ACCEPTED);
    assertThat(kit.getState().currentAttempt().attemptId()).isEqualTo(ATTEMPT2);

    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.AmContainerFinished(ATTEMPT2, 1, "boom", r));
    assertThat(kit.getState().state()).isEqualTo(AppState.FAILED);
    assertThat(kit.getState().diagnostics()).contains("failed 1 times").contains("exitCode: 1");
  }

  @Test
  void killEndsTheApplicationOnceAndIsIdempotent() {
    submit(2);
    var kill = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    assertThat(kill.reply().getValue().state()).isEqualTo(AppState.KILLED);
    assertThat(kill.reply().getValue().currentAttempt().state()).isEqualTo(AttemptState.KILLED);
    var again = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    assertThat(again.reply().getValue().state()).isEqualTo(AppState.KILLED);
    assertThat(again.hasNoEvents()).isTrue();
  }

  @Test
  void registrationOfAStaleAttemptIsRefused() {
    submit(2);
    var reg = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.RegisterAm(ATTEMPT2, "h", 0, "", r));
    assertThat(reg.reply().isError()).isTrue();
    assertThat(reg.hasNoEvents()).isTrue();
  }

  @Test
  void stateSurvivesARestart() {
    submit(2);
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.RegisterAm(ATTEMPT1, "h", 7, "http://t", r));
    var restarted = kit.restart();
    assertThat(restarted.state().state()).isEqualTo(AppState.RUNNING);
    assertThat(restarted.state().currentAttempt().trackingUrl()).isEqualTo("http://t");
  }

  @Test
  void preemptionsAreRecordedWithTheirReasonsOnBothSides() {
    submit(2);
    var record = new PreemptionRecord("container_1700000000000_0001_01_000002", APP, "application_1700000000000_0002",
        "root.b", "FAIR_SHARE", new Resource(1024, 1), false, 1, 2, "root.b starved: usage 0 below 0.5 x share 4096");
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordPreemption(record, true, r));
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordPreemption(record, false, r));
    PreemptionHistory h = kit.restart().state().preemptions();
    assertThat(h.nonAmContainersPreempted()).isEqualTo(1);
    assertThat(h.preemptedResource()).isEqualTo(new Resource(1024, 1));
    assertThat(h.suffered()).containsExactly(record);
    assertThat(h.caused()).containsExactly(record);
  }

  @Test
  void aCancelledPreemptionNoLongerCountsAndACancellationIsTakenOnce() {
    submit(2);
    var record = new PreemptionRecord("container_1700000000000_0001_01_000002", APP, null, "root.b", "CAPACITY",
        new Resource(1024, 1), false, 1, 2, "1 GB from root.a, guaranteed 28 GB, using 40 GB");
    kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.RecordPreemption(record, true, r));
    var cancelled = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.CancelPreemption(record, r));
    assertThat(cancelled.reply().isSuccess()).isTrue();
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.CancelPreemption(record, r)).hasNoEvents())
        .isTrue();
    PreemptionHistory h = kit.restart().state().preemptions();
    assertThat(h.nonAmContainersPreempted()).isZero();
    assertThat(h.preemptedResource()).isEqualTo(Resource.NONE);
    assertThat(h.suffered()).isEmpty();
  }

  private StatusReply<AppReport> updatePriority(int priority) {
    return kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdatePriority(priority, r)).reply();
  }

  @Test
  void aNewPriorityIsJournalledToldToTheSchedulerAndSurvivesARestart() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);

    var updated = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdatePriority(7, r));
    assertThat(updated.events()).containsExactly(new ApplicationEntity.PriorityUpdated(7));
    assertThat(updated.reply().getValue().priority()).isEqualTo(7);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.PriorityChanged.class))
        .isEqualTo(new SchedulerProtocol.PriorityChanged(APP, 7));
    // Everything else of the submission stays as it was.
    assertThat(kit.getState().submission()).isEqualTo(submission(1).withPriority(7));

    assertThat(kit.restart().state().report().priority()).isEqualTo(7);
  }

  @Test
  void theSamePriorityAgainWritesNothingAndTellsNoOne() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    updatePriority(3);
    scheduler.expectMessageClass(SchedulerProtocol.PriorityChanged.class);

    var again = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdatePriority(3, r));
    assertThat(again.hasNoEvents()).isTrue();
    assertThat(again.reply().getValue().priority()).isEqualTo(3);
    scheduler.expectNoMessage();
  }

  @Test
  void anEndedApplicationKeepsItsPriorityAndAnUnknownOneIsNotFound() {
    assertThat(updatePriority(5).getError().getMessage()).isEqualTo("app with id: " + APP + " not found");

    submit(1);
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var ended = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.UpdatePriority(5, r));
    assertThat(ended.hasNoEvents()).isTrue();
    assertThat(ended.reply().getValue().priority()).isZero();
    assertThat(ended.reply().getValue().state()).isEqualTo(AppState.KILLED);
  }

  @Test
  void aRepeatedSubmissionIsStillARepeatAfterThePriorityChanged() {
    submit(1);
    updatePriority(4);
    var repeat = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(submission(1), r));
    assertThat(repeat.hasNoEvents()).isTrue();
    assertThat(repeat.reply().getValue().priority()).isEqualTo(4);
  }

  @Test
  void aMoveIsJournalledToldToTheSchedulerKeepsThePriorityAndSurvivesARestart() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);
    updatePriority(4);
    scheduler.expectMessageClass(SchedulerProtocol.PriorityChanged.class);

    var moved = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.MoveToQueue("b", r));
    assertThat(moved.events()).containsExactly(new ApplicationEntity.QueueMoved("default", "b"));
    assertThat(moved.reply().getValue().queue()).isEqualTo("b");
    assertThat(moved.reply().getValue().priority()).isEqualTo(4);
    assertThat(scheduler.expectMessageClass(SchedulerProtocol.QueueMoved.class))
        .isEqualTo(new SchedulerProtocol.QueueMoved(APP, "b"));
    assertThat(kit.getState().submission()).isEqualTo(submission(1).withPriority(4).withQueue("b"));

    ApplicationEntity.State recovered = kit.restart().state();
    assertThat(recovered.report().queue()).isEqualTo("b");
    assertThat(recovered.report().priority()).isEqualTo(4);
    // A retried submission is still the same application wherever it runs now.
    var repeat = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Submit(submission(1), r));
    assertThat(repeat.hasNoEvents()).isTrue();
    assertThat(repeat.reply().getValue().queue()).isEqualTo("b");
  }

  @Test
  void aMoveToTheQueueItIsInWritesNothingAndTellsNoOne() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);

    var same = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.MoveToQueue("default", r));
    assertThat(same.hasNoEvents()).isTrue();
    assertThat(same.reply().getValue().queue()).isEqualTo("default");
    scheduler.expectNoMessage();
  }

  @Test
  void anEndedOrUnknownApplicationIsNotMovedAndNothingChanges() {
    var unknown = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.MoveToQueue("b", r));
    assertThat(unknown.hasNoEvents()).isTrue();
    assertThat(unknown.reply().getError().getMessage()).isEqualTo("app with id: " + APP + " not found");

    submit(1);
    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var ended = kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.MoveToQueue("b", r));
    assertThat(ended.hasNoEvents()).isTrue();
    assertThat(ended.reply().getError().getMessage()).isEqualTo("App in KILLED state cannot be moved.");
    assertThat(kit.getState().submission().queue()).isEqualTo("default");
  }

  @Test
  void aPreparedMoveNotesItsTargetAndAFinishedOneItsSourceSoBothSurviveARestart() {
    submit(1);
    scheduler.expectMessageClass(SchedulerProtocol.AttemptAdded.class);

    var prepared = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.PrepareMove("b", r));
    assertThat(prepared.events()).containsExactly(new ApplicationEntity.MovePrepared("b"));
    assertThat(prepared.reply().isSuccess()).isTrue();
    assertThat(kit.getState().moveQueues()).containsExactly("b");
    // The application runs where it ran until the move is recorded, and nothing is told to the scheduler.
    assertThat(kit.getState().report().queue()).isEqualTo("default");
    scheduler.expectNoMessage();
    // Preparing it again, as a retried move does, writes nothing.
    assertThat(kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.PrepareMove("b", r)).hasNoEvents())
        .isTrue();

    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.MoveToQueue("b", r));
    assertThat(kit.getState().moveQueues()).containsExactlyInAnyOrder("b", "default");
    assertThat(kit.restart().state().moveQueues()).containsExactlyInAnyOrder("b", "default");
  }

  @Test
  void aMoveIsNotPreparedForAnEndedApplicationNorToTheQueueItIsIn() {
    submit(1);
    var same = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.PrepareMove("default", r));
    assertThat(same.hasNoEvents()).isTrue();
    assertThat(same.reply().isSuccess()).isTrue();

    kit.<StatusReply<AppReport>>runCommand(r -> new ApplicationEntity.Kill("", r));
    var ended = kit.<StatusReply<Done>>runCommand(r -> new ApplicationEntity.PrepareMove("b", r));
    assertThat(ended.hasNoEvents()).isTrue();
    assertThat(ended.reply().getError().getMessage()).isEqualTo("App in KILLED state cannot be moved.");
    assertThat(kit.getState().moveQueues()).isEmpty();
  }
}
