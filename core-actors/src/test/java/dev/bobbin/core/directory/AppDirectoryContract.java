package dev.bobbin.core.directory;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.core.scheduler.ToScheduler;
import dev.bobbin.persistence.testing.TestJournals;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.YarnApplicationState;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.SourceProvider;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The application list as a projection of real application entities' events, on a real journal
 * database (subclasses supply it): what it lists and counts, how it is bounded, that it resumes
 * from its offset, and how it drops ended applications from their queues.
 */
abstract class AppDirectoryContract {
  private static final Duration WAIT = Duration.ofSeconds(20);
  /** A group whose queues do not answer in this long (two tries) fails and is read again. */
  private static final Duration QUEUE_TIMEOUT = Duration.ofSeconds(4);
  private final List<ActorTestKit> kits = new ArrayList<>();
  private final Map<String, ActorRef<ApplicationEntity.Command>> entities = new HashMap<>();
  private ActorTestKit kit;

  /** The same database on every call within one test. */
  abstract Config config();

  @AfterEach
  void shutDown() {
    kits.forEach(ActorTestKit::shutdownTestKit);
  }

  /** A member: a new ActorSystem on the test's database. */
  private ActorTestKit startMember() {
    kit = ActorTestKit.create(getClass().getSimpleName() + "-" + kits.size(), ConfigFactory.parseString("""
            pekko.projection.restart-backoff { min-backoff = 200ms, max-backoff = 1s }
            """).withFallback(config()));
    kits.add(kit);
    entities.clear();
    TestJournals.ensureSchema(kit.system());
    return kit;
  }

  private void stopMember() {
    kit.shutdownTestKit();
    kits.remove(kit);
  }

  // The projection

  /** The source of the projection, recording where it was asked to start and what it delivered. */
  private static final class RecordingSource extends SourceProvider<Offset, EventEnvelope<ApplicationEntity.Event>> {
    final List<Optional<Offset>> startedFrom = new CopyOnWriteArrayList<>();
    final List<EventEnvelope<ApplicationEntity.Event>> delivered = new CopyOnWriteArrayList<>();
    private final SourceProvider<Offset, EventEnvelope<ApplicationEntity.Event>> events;

    RecordingSource(ActorTestKit kit) {
      events = EventSourcedProvider.eventsByTag(kit.system(), JdbcReadJournal.Identifier(), ApplicationEntity.TAG);
    }

    @Override
    public CompletionStage<Source<EventEnvelope<ApplicationEntity.Event>, NotUsed>> source(
        Supplier<CompletionStage<Optional<Offset>>> offset) {
      return events.source(() -> offset.get().thenApply(o -> {
        startedFrom.add(o);
        return o;
      })).thenApply(s -> s.map(env -> {
        delivered.add(env);
        return env;
      }));
    }

    @Override
    public Offset extractOffset(EventEnvelope<ApplicationEntity.Event> envelope) {
      return events.extractOffset(envelope);
    }

    @Override
    public long extractCreationTime(EventEnvelope<ApplicationEntity.Event> envelope) {
      return events.extractCreationTime(envelope);
    }

    List<String> deliveredApps() {
      return delivered.stream().map(e -> e.persistenceId().substring(e.persistenceId().indexOf('|') + 1)).toList();
    }
  }

  private ActorRef<ProjectionBehavior.Command> runProjection(RecordingSource source, int maxCompleted,
      Function<String, RecipientRef<QueueEntity.Command>> queues) {
    return kit.spawn(ProjectionBehavior.create(
        AppDirectory.projection(kit.system(), source, maxCompleted, queues, QUEUE_TIMEOUT)));
  }

  private void stopProjection(ActorRef<ProjectionBehavior.Command> projection) {
    TestProbe<Object> watcher = kit.createTestProbe();
    projection.tell(ProjectionBehavior.stopMessage());
    watcher.expectTerminated(projection, WAIT);
  }

  /** Queues that acknowledge every ended application and tell {@code seen} about it. */
  private Function<String, RecipientRef<QueueEntity.Command>> acknowledgingQueues(
      TestProbe<QueueEntity.RemoveApp> seen) {
    Behavior<QueueEntity.Command> queue = Behaviors.receiveMessage(c -> {
      if (c instanceof QueueEntity.RemoveApp r) {
        seen.ref().tell(r);
        r.replyTo().tell(StatusReply.ack());
      }
      return Behaviors.same();
    });
    ActorRef<QueueEntity.Command> ref = kit.spawn(queue);
    return name -> ref;
  }

  // The applications

  private ActorRef<ApplicationEntity.Command> entity(String appId) {
    // No scheduler runs: its notices go to a probe nobody reads.
    return entities.computeIfAbsent(appId, id -> kit.spawn(ApplicationEntity.create(id,
        new ToScheduler(kit.<SchedulerProtocol.Command>createTestProbe().ref()), Clock.systemUTC(), 100)));
  }

  private AppReport ask(String appId,
      java.util.function.Function<ActorRef<StatusReply<AppReport>>, ApplicationEntity.Command> command) {
    TestProbe<StatusReply<AppReport>> reply = kit.createTestProbe();
    entity(appId).tell(command.apply(reply.ref()));
    return reply.receiveMessage(WAIT).getValue();
  }

  private AppReport submit(String appId) {
    Submission s = new Submission(appId, "shell", "alice", "default", 0, "YARN", List.of(), new Resource(1024, 1),
        new ContainerLaunchContext(List.of("true"), Map.of()), 2);
    TestProbe<StatusReply<Done>> issued = kit.createTestProbe();
    entity(appId).tell(new ApplicationEntity.Issue("alice", issued.ref()));
    assertThat(issued.receiveMessage(WAIT).isSuccess()).isTrue();
    return ask(appId, r -> new ApplicationEntity.Submit(s, r));
  }

  private AppReport kill(String appId) {
    return ask(appId, r -> new ApplicationEntity.Kill("killed by the test", r));
  }

  private AppReport report(String appId) {
    return ask(appId, ApplicationEntity.Get::new);
  }

  private static String app(int n) {
    return Ids.applicationId(1_700_000_000_000L, n);
  }

  // The list as any member reads it

  private List<AppReport> list() {
    return AppDirectory.reader(kit.system()).list().toCompletableFuture().join();
  }

  private List<String> listedIds() {
    return list().stream().map(AppReport::id).toList();
  }

  private AppCounts counts() {
    return AppDirectory.reader(kit.system()).counts().toCompletableFuture().join();
  }

  private AppReport listed(String appId) {
    return list().stream().filter(r -> r.id().equals(appId)).findFirst().orElse(null);
  }

  private void await(Runnable assertion) {
    kit.createTestProbe().awaitAssert(WAIT, () -> {
      assertion.run();
      return null;
    });
  }

  @Test
  void aSubmittedApplicationIsListedAndFollowsItsEntityToItsEnd() {
    startMember();
    TestProbe<QueueEntity.RemoveApp> queues = kit.createTestProbe();
    runProjection(new RecordingSource(kit), 1000, acknowledgingQueues(queues));
    String a = app(1);

    submit(a);
    await(() -> assertThat(listed(a)).isEqualTo(report(a)).returns(AppState.ACCEPTED, AppReport::state));
    ask(a, r -> new ApplicationEntity.RegisterAm(Ids.attemptId(a, 1), "host", 0, "", r));
    await(() -> assertThat(listed(a)).isEqualTo(report(a)).returns(AppState.RUNNING, AppReport::state));
    ask(a, r -> new ApplicationEntity.UnregisterAm(Ids.attemptId(a, 1), FinalApplicationStatus.SUCCEEDED, "done",
        "", r));
    await(() -> assertThat(listed(a)).isEqualTo(report(a)).returns(AppState.FINISHED, AppReport::state));

    // Its queue was told once that it ended.
    assertThat(queues.receiveMessage(WAIT).appId()).isEqualTo(a);
    queues.expectNoMessage(Duration.ofMillis(300));
    AppCounts counts = counts();
    assertThat(counts.submitted()).isEqualTo(1);
    assertThat(counts.byState()).containsOnly(Map.entry(AppState.FINISHED, 1L));
  }

  @Test
  void endedApplicationsBeyondTheBoundLeaveOldestFirstWhileLiveOnesStayAndAllAreCounted() {
    startMember();
    TestProbe<QueueEntity.RemoveApp> queues = kit.createTestProbe();
    runProjection(new RecordingSource(kit), 2, acknowledgingQueues(queues));
    String live1 = app(1);
    String first = app(2);
    String second = app(3);
    String third = app(4);
    String live2 = app(5);
    for (String id : List.of(live1, first, second, third, live2)) submit(id);
    await(() -> assertThat(listedIds()).containsExactly(live1, first, second, third, live2));

    for (String id : List.of(first, second, third)) kill(id);
    await(() -> assertThat(listedIds()).containsExactly(live1, second, third, live2));
    assertThat(listed(third).state()).isEqualTo(AppState.KILLED);
    assertThat(listed(live1).state()).isEqualTo(AppState.ACCEPTED);
    AppCounts counts = counts();
    assertThat(counts.submitted()).isEqualTo(5);
    assertThat(counts.in(YarnApplicationState.KILLED)).isEqualTo(3);
    assertThat(counts.in(YarnApplicationState.ACCEPTED)).isEqualTo(2);

    // An event of an application that left the list does not bring it back, nor count it again.
    var preemption = new PreemptionRecord("container_1700000000000_0002_01_000002", first, live1, "default",
        "fair-share", new Resource(1024, 1), false, 1L, 2L, "starved");
    TestProbe<StatusReply<org.apache.pekko.Done>> recorded = kit.createTestProbe();
    entity(first).tell(new ApplicationEntity.RecordPreemption(preemption, true, recorded.ref()));
    assertThat(recorded.receiveMessage(WAIT).isSuccess()).isTrue();
    entity(live1).tell(new ApplicationEntity.RecordPreemption(preemption, false, recorded.ref()));
    assertThat(recorded.receiveMessage(WAIT).isSuccess()).isTrue();
    await(() -> assertThat(listed(live1).preemptions().caused()).hasSize(1));
    assertThat(listedIds()).containsExactly(live1, second, third, live2);
    assertThat(counts()).isEqualTo(counts);
  }

  @Test
  void anEndedApplicationThatLeftTheListLeavesTheJournalTooAndIsForgotten() {
    startMember();
    runProjection(new RecordingSource(kit), 1, acknowledgingQueues(kit.createTestProbe()));
    String evicted = app(1);
    String kept = app(2);
    String live = app(3);
    for (String id : List.of(evicted, kept, live)) submit(id);
    kill(evicted);
    kill(kept);
    await(() -> assertThat(listedIds()).containsExactly(kept, live));
    stopMember();

    // A member that recovers the entities from the journal finds nothing of the evicted one.
    startMember();
    TestProbe<StatusReply<AppReport>> reply = kit.createTestProbe();
    entity(evicted).tell(new ApplicationEntity.Get(reply.ref()));
    assertThat(reply.receiveMessage(WAIT).getError().getMessage()).contains("not found");
    assertThat(report(kept).state()).isEqualTo(AppState.KILLED);
    assertThat(report(live).state()).isEqualTo(AppState.ACCEPTED);
  }

  @Test
  void aRestartedMemberResumesTheProjectionFromItsOffsetWithoutReadingAgain() {
    startMember();
    String before = app(1);
    RecordingSource firstRun = new RecordingSource(kit);
    ActorRef<ProjectionBehavior.Command> projection = runProjection(firstRun, 1000,
        acknowledgingQueues(kit.createTestProbe()));
    submit(before);
    kill(before);
    await(() -> assertThat(listed(before)).returns(AppState.KILLED, AppReport::state));
    stopProjection(projection);
    stopMember();
    // Submitted, AttemptStarted, AppKilled: read from the start of the tag.
    assertThat(firstRun.startedFrom).containsExactly(Optional.empty());
    assertThat(firstRun.deliveredApps()).containsExactly(before, before, before);

    startMember();
    String after = app(2);
    submit(after);
    RecordingSource secondRun = new RecordingSource(kit);
    runProjection(secondRun, 1000, acknowledgingQueues(kit.createTestProbe()));
    await(() -> assertThat(listedIds()).containsExactly(before, after));
    assertThat(secondRun.startedFrom).containsExactly(
        Optional.of(firstRun.delivered.get(firstRun.delivered.size() - 1).offset()));
    assertThat(secondRun.deliveredApps()).containsOnly(after).hasSize(2);
    assertThat(listed(before)).returns(AppState.KILLED, AppReport::state);
    assertThat(counts().submitted()).isEqualTo(2);
  }

  /**
   * Runs the projection with {@code queue} as every queue, submits an application, waits until it
   * is listed, and kills it.
   */
  private String killAListedApp(TestProbe<QueueEntity.Command> queue, RecordingSource source) {
    runProjection(source, 1000, name -> queue.ref());
    String a = app(1);
    submit(a);
    await(() -> assertThat(listed(a)).returns(AppState.ACCEPTED, AppReport::state));
    kill(a);
    return a;
  }

  @Test
  void anEndedApplicationIsListedEndedOnlyOnceItsQueueAcknowledgesAndIsAskedAgainUntilThen() {
    startMember();
    TestProbe<QueueEntity.Command> queue = kit.createTestProbe();
    String a = killAListedApp(queue, new RecordingSource(kit));

    QueueEntity.RemoveApp unanswered = queue.expectMessageClass(QueueEntity.RemoveApp.class, WAIT);
    assertThat(unanswered.appId()).isEqualTo(a);
    assertThat(listed(a).state()).isEqualTo(AppState.ACCEPTED);
    QueueEntity.RemoveApp again = queue.expectMessageClass(QueueEntity.RemoveApp.class, WAIT);
    assertThat(again.appId()).isEqualTo(a);
    assertThat(listed(a).state()).isEqualTo(AppState.ACCEPTED);
    again.replyTo().tell(StatusReply.ack());

    await(() -> assertThat(listed(a).state()).isEqualTo(AppState.KILLED));
    queue.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aQueueThatDoesNotAnswerInTimeFailsTheGroupWhichIsReadAgain() {
    startMember();
    TestProbe<QueueEntity.Command> queue = kit.createTestProbe();
    RecordingSource source = new RecordingSource(kit);
    String a = killAListedApp(queue, source);

    // Unanswered for all of QUEUE_TIMEOUT: the group fails, and the restarted projection reads it
    // again from the offset before it, and asks again.
    List<QueueEntity.RemoveApp> asked = new ArrayList<>();
    while (source.startedFrom.size() < 2) {
      asked.add(queue.expectMessageClass(QueueEntity.RemoveApp.class, QUEUE_TIMEOUT.plus(WAIT)));
    }
    assertThat(asked).hasSizeGreaterThanOrEqualTo(2).extracting(QueueEntity.RemoveApp::appId).containsOnly(a);
    assertThat(source.startedFrom.get(1)).contains(source.delivered.get(1).offset());
    assertThat(source.delivered).extracting(e -> e.event().getClass().getSimpleName())
        .containsExactly("Submitted", "AttemptStarted", "AppKilled", "AppKilled");
    assertThat(listed(a).state()).isEqualTo(AppState.ACCEPTED);
    queue.expectMessageClass(QueueEntity.RemoveApp.class, WAIT).replyTo().tell(StatusReply.ack());

    await(() -> assertThat(listed(a)).returns(AppState.KILLED, AppReport::state));
  }

  @Test
  void aQueueThatRefusesIsNotAskedAgain() {
    startMember();
    TestProbe<QueueEntity.Command> queue = kit.createTestProbe();
    String a = killAListedApp(queue, new RecordingSource(kit));

    queue.expectMessageClass(QueueEntity.RemoveApp.class, WAIT).replyTo()
        .tell(StatusReply.error("Queue default does not hold " + a));
    await(() -> assertThat(listed(a)).returns(AppState.KILLED, AppReport::state));
    queue.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anApplicationThatEndsLeavesEveryQueueAMoveOfItNamedAsWellAsItsOwn() {
    startMember();
    TestProbe<String> queues = kit.createTestProbe();
    runProjection(new RecordingSource(kit), 1000, queuesByName(queues));
    String a = app(1);
    submit(a);
    // Moved from default to b, and a move to c cut short after c admitted it (say its member died).
    prepareMove(a, "b");
    ask(a, r -> new ApplicationEntity.MoveToQueue("b", r));
    prepareMove(a, "c");
    kill(a);

    await(() -> assertThat(listed(a).state()).isEqualTo(AppState.KILLED));
    List<String> asked = List.of(queues.receiveMessage(WAIT), queues.receiveMessage(WAIT), queues.receiveMessage(WAIT));
    assertThat(asked).containsExactlyInAnyOrder("b/" + a, "default/" + a, "c/" + a);
    queues.expectNoMessage(Duration.ofMillis(300));
  }

  private void prepareMove(String appId, String queue) {
    TestProbe<StatusReply<Done>> reply = kit.createTestProbe();
    entity(appId).tell(new ApplicationEntity.PrepareMove(queue, reply.ref()));
    assertThat(reply.receiveMessage(WAIT).isSuccess()).isTrue();
  }

  /** Queues that acknowledge every ended application and tell {@code seen} "queue/application". */
  private Function<String, RecipientRef<QueueEntity.Command>> queuesByName(TestProbe<String> seen) {
    Map<String, ActorRef<QueueEntity.Command>> byName = new java.util.concurrent.ConcurrentHashMap<>();
    return name -> byName.computeIfAbsent(name, n -> kit.spawn(Behaviors.<QueueEntity.Command>receiveMessage(c -> {
      if (c instanceof QueueEntity.RemoveApp r) {
        seen.ref().tell(n + "/" + r.appId());
        r.replyTo().tell(StatusReply.ack());
      }
      return Behaviors.same();
    })));
  }
}
