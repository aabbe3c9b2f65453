package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.persistence.JournalCheckpoints;
import dev.bobbin.persistence.JournalDatabase;
import dev.bobbin.persistence.JournalScan;
import dev.bobbin.persistence.testing.TestJournals;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler's checkpoint on the real embedded journal: what it keeps, that a recovery from it
 * and the events after it sees what a recovery from the whole journal sees, and that the
 * singleton that writes it keeps it up to date.
 */
class JournalCheckpointTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String APP1 = "application_1700000000000_0001";
  private static final String APP2 = "application_1700000000000_0002";
  private static final String APP3 = "application_1700000000000_0003";
  private static final String ATTEMPT1 = "appattempt_1700000000000_0001_000001";
  private static final String C1 = "container_1700000000000_0001_01_000001";
  private static final String C2 = "container_1700000000000_0001_01_000002";
  private static final String C3 = "container_1700000000000_0001_01_000003";
  private static final String C4 = "container_1700000000000_0001_01_000004";
  private static final String C5 = "container_1700000000000_0001_01_000005";
  private static final String NODE = "h:8042";

  @TempDir Path dir;
  private ActorTestKit kit;
  private final Map<String, ActorRef<Write>> writers = new HashMap<>();

  @BeforeEach
  void start() {
    // Write carries arbitrary events, which no serializer can type; it never leaves this JVM.
    kit = ActorTestKit.create("JournalCheckpointTest", ConfigFactory.parseString("pekko.actor.serialize-messages = off")
        .withFallback(TestJournals.embedded(dir)));
    TestJournals.ensureSchema(kit.system());
  }

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void aCheckpointKeepsWhatIsLiveAndRecoveryFromItSeesWhatTheWholeJournalSays() throws Exception {
    writeHistory();
    await(CheckpointWriter.writeQuiescent(kit.system()));

    RecoveredModel checkpoint = ModelCheckpoint.model(await(JournalCheckpoints.latest(kit.system(),
        ModelCheckpoint.NAME)).orElseThrow().parts());
    // The finished container and the killed application have no further part to play.
    assertThat(checkpoint.apps()).containsOnlyKeys(APP1);
    assertThat(checkpoint.containers()).containsOnlyKeys(C1);
    assertThat(checkpoint.nodes()).containsOnlyKeys(NODE);

    writeAfterTheCheckpoint();
    RecoveredModel recovered = await(JournalRecovery.read(kit.system()));
    assertThat(recovered.apps()).containsOnlyKeys(APP1, APP3);
    assertThat(recovered.apps().get(APP1).state()).isEqualTo(AppState.RUNNING);
    assertThat(recovered.containers()).containsOnlyKeys(C1, C3);
    assertThat(recovered.containers().get(C1).phase()).isEqualTo(ContainerEntity.Phase.RUNNING);
    assertThat(ModelCheckpoint.prune(recovered)).isEqualTo(ModelCheckpoint.prune(wholeJournal()));
  }

  @Test
  void completionsTheApplicationRecordedAsDeliveredAreLeftOutBeforeAndAfterTheCheckpoint() throws Exception {
    writeHistory();
    write(ContainerEntity.TYPE_KEY.name(), C4, new ContainerEntity.Allocated(allocation(C4, false), 4),
        new ContainerEntity.Launched(5), new ContainerEntity.Completed(0, "", 6));
    write(ContainerEntity.TYPE_KEY.name(), C5, new ContainerEntity.Allocated(allocation(C5, false), 4),
        new ContainerEntity.Completed(1, "", 6));
    write(ApplicationEntity.TYPE_KEY.name(), APP1, new ApplicationEntity.CompletionsDelivered(ATTEMPT1, List.of(C4)));
    await(CheckpointWriter.writeQuiescent(kit.system()));
    // C4 reached its AM; C5 did not yet, so a recovering scheduler must still deliver it.
    RecoveredModel checkpoint = latestCheckpoint();
    assertThat(checkpoint.containers()).containsOnlyKeys(C1, C5);
    assertThat(checkpoint.containers().get(C5).completionDelivered()).isFalse();

    write(ApplicationEntity.TYPE_KEY.name(), APP1, new ApplicationEntity.CompletionsDelivered(ATTEMPT1, List.of(C5)));
    RecoveredModel recovered = await(JournalRecovery.read(kit.system()));
    assertThat(recovered.containers().get(C5).completionDelivered()).isTrue();
    assertThat(recovered.apps().get(APP1).state()).isEqualTo(AppState.RUNNING);
    assertThat(ModelCheckpoint.prune(recovered).containers()).containsOnlyKeys(C1);
    assertThat(ModelCheckpoint.prune(recovered)).isEqualTo(ModelCheckpoint.prune(wholeJournal()));
  }

  @Test
  void theCheckpointsFoldLeavesOutDeliveredCompletionsAndPrunesToWhatTheFullFoldDoes() throws Exception {
    writeHistory();
    await(CheckpointWriter.writeQuiescent(kit.system()));
    FoldedJournal base = await(JournalRecovery.latestCheckpoint(kit.system()));
    assertThat(base.model().containers()).containsOnlyKeys(C1);
    write(ContainerEntity.TYPE_KEY.name(), C1, new ContainerEntity.Completed(0, "", 7));
    write(ContainerEntity.TYPE_KEY.name(), C3, new ContainerEntity.Allocated(allocation(C3, false), 8));
    write(ContainerEntity.TYPE_KEY.name(), C4, new ContainerEntity.Allocated(allocation(C4, false), 8),
        new ContainerEntity.Launched(9), new ContainerEntity.Completed(0, "", 10));
    write(ContainerEntity.TYPE_KEY.name(), C5, new ContainerEntity.Allocated(allocation(C5, false), 8),
        new ContainerEntity.Withdrawn(9));
    // C3 is named too but has not completed, so it stays.
    write(ApplicationEntity.TYPE_KEY.name(), APP1,
        new ApplicationEntity.CompletionsDelivered(ATTEMPT1, List.of(C1, C3, C4, C5)));

    FoldedJournal full = await(JournalRecovery.foldAfter(kit.system(), base, Long.MAX_VALUE));
    FoldedJournal forCheckpoint = await(JournalRecovery.foldForCheckpoint(kit.system(), base, Long.MAX_VALUE,
        missing -> true));
    assertThat(full.model().containers()).containsOnlyKeys(C1, C3, C4, C5);
    assertThat(forCheckpoint.model().containers()).containsOnlyKeys(C3);
    assertThat(ModelCheckpoint.prune(forCheckpoint.model())).isEqualTo(ModelCheckpoint.prune(full.model()));
    assertThat(forCheckpoint.ordering()).isEqualTo(full.ordering());
    assertThat(forCheckpoint.events()).isEqualTo(full.events());
  }

  @Test
  void anUnreadableCheckpointMeansTheWholeJournalIsRead() throws Exception {
    writeHistory();
    writeAfterTheCheckpoint();
    // Not a part of the model: as if written by a version whose classes have changed since.
    await(JournalCheckpoints.write(kit.system(), ModelCheckpoint.NAME, 1, List.of(NodeEntity.State.EMPTY)));

    RecoveredModel recovered = await(JournalRecovery.read(kit.system()));
    assertThat(recovered).isEqualTo(wholeJournal());
    assertThat(recovered.apps()).containsKeys(APP1, APP2, APP3);
  }

  @Test
  void theWriterFoldsNewEventsIntoTheCheckpoint() {
    kit.spawn(CheckpointWriter.create(Duration.ofMillis(100), 1), "checkpoint-writer");
    writeHistory();
    TestProbe<Object> probe = kit.createTestProbe();
    probe.awaitAssert(WAIT, () -> {
      assertThat(latestCheckpoint().apps()).containsOnlyKeys(APP1);
      return null;
    });
    writeAfterTheCheckpoint();
    probe.awaitAssert(WAIT, () -> {
      RecoveredModel latest = latestCheckpoint();
      assertThat(latest.apps()).containsOnlyKeys(APP1, APP3);
      assertThat(latest.containers()).containsOnlyKeys(C1, C3);
      return null;
    });
  }

  @Test
  void theWriterStopsBeforeAnOrderingNotCommittedYetAndFoldsItOnceItIs() throws Exception {
    writeHistory();
    // C3's row taken away stands for a write that took its ordering and commits only later.
    write(ContainerEntity.TYPE_KEY.name(), C3, new ContainerEntity.Allocated(allocation(C3, false), 8));
    long late = await(JournalScan.highestOrdering(kit.system()));
    String held = hold(late);
    write(ApplicationEntity.TYPE_KEY.name(), APP3, new ApplicationEntity.Submitted(submission(APP3), 9));
    var writer = kit.spawn(CheckpointWriter.create(Duration.ofMillis(100), 1, Duration.ofHours(1)), "checkpoint-writer");

    TestProbe<CheckpointWriter.Progress> progress = kit.createTestProbe();
    progress.awaitAssert(WAIT, () -> {
      writer.tell(new CheckpointWriter.GetProgress(progress.ref()));
      assertThat(progress.receiveMessage()).isEqualTo(new CheckpointWriter.Progress(late - 1, List.of(late)));
      return null;
    });
    assertThat(latestCheckpoint().apps()).containsOnlyKeys(APP1);

    jdbc("INSERT INTO \"event_journal\" SELECT * FROM \"" + held + "\"");
    awaitCheckpoint(latest -> {
      assertThat(latest.apps()).containsOnlyKeys(APP1, APP3);
      assertThat(latest.containers()).containsOnlyKeys(C1, C3);
    });
  }

  @Test
  void theWriterGoesPastAnOrderingThatStaysMissingForTheWait() throws Exception {
    writeHistory();
    // A write whose process died before it committed: its ordering never turns up.
    write(ContainerEntity.TYPE_KEY.name(), C3, new ContainerEntity.Allocated(allocation(C3, false), 8));
    hold(await(JournalScan.highestOrdering(kit.system())));
    write(ApplicationEntity.TYPE_KEY.name(), APP3, new ApplicationEntity.Submitted(submission(APP3), 9));
    kit.spawn(CheckpointWriter.create(Duration.ofMillis(100), 1, Duration.ofMillis(300)), "checkpoint-writer");
    awaitCheckpoint(latest -> {
      assertThat(latest.apps()).containsOnlyKeys(APP1, APP3);
      assertThat(latest.containers()).containsOnlyKeys(C1);
    });
  }

  private void awaitCheckpoint(java.util.function.Consumer<RecoveredModel> check) {
    kit.createTestProbe().awaitAssert(WAIT, () -> {
      check.accept(latestCheckpoint());
      return null;
    });
  }

  /** Moves a journal row aside into a table of its own, whose name it returns. */
  private String hold(long ordering) throws Exception {
    String held = "held_" + ordering;
    jdbc("CREATE TABLE \"" + held + "\" AS SELECT * FROM \"event_journal\" WHERE \"ordering\" = " + ordering);
    jdbc("DELETE FROM \"event_journal\" WHERE \"ordering\" = " + ordering);
    return held;
  }

  private void jdbc(String sql) throws Exception {
    try (var conn = JournalDatabase.source(kit.system()).createConnection(); var st = conn.createStatement()) {
      st.execute(sql);
    }
  }

  private RecoveredModel latestCheckpoint() throws Exception {
    var latest = await(JournalCheckpoints.latest(kit.system(), ModelCheckpoint.NAME));
    assertThat(latest).isPresent();
    return ModelCheckpoint.model(latest.get().parts());
  }

  private RecoveredModel wholeJournal() throws Exception {
    return await(JournalRecovery.foldAfter(kit.system(), FoldedJournal.EMPTY, Long.MAX_VALUE)).model();
  }

  /** A running application with its running AM and a finished container, a killed one, a node. */
  private void writeHistory() {
    write(NodeEntity.TYPE_KEY.name(), NODE, new NodeEntity.Registered(
        new NodeEntity.Registration(NODE, "h", NODE, "/default-rack", new Resource(8192, 8)), 1));
    write(ApplicationEntity.TYPE_KEY.name(), APP1, new ApplicationEntity.Submitted(submission(APP1), 1),
        new ApplicationEntity.AttemptStarted(ATTEMPT1, 1, 2),
        new ApplicationEntity.AmContainerAssigned(ATTEMPT1, C1, NODE, NODE),
        new ApplicationEntity.AmRegistered(ATTEMPT1, "h", 0, ""));
    write(ContainerEntity.TYPE_KEY.name(), C1, new ContainerEntity.Allocated(allocation(C1, true), 2),
        new ContainerEntity.Launched(3));
    write(ContainerEntity.TYPE_KEY.name(), C2, new ContainerEntity.Allocated(allocation(C2, false), 4),
        new ContainerEntity.Launched(5), new ContainerEntity.Completed(0, "", 6),
        new ContainerEntity.CompletionDelivered());
    write(ApplicationEntity.TYPE_KEY.name(), APP2, new ApplicationEntity.Submitted(submission(APP2), 1),
        new ApplicationEntity.AppKilled("killed by alice", 7));
  }

  /** A new container and application, and late events of the two the checkpoint left out. */
  private void writeAfterTheCheckpoint() {
    write(ContainerEntity.TYPE_KEY.name(), C3, new ContainerEntity.Allocated(allocation(C3, false), 8));
    var preemption = new PreemptionRecord(C2, APP1, APP3, "root.default", "FAIR_SHARE", new Resource(1024, 1),
        false, 9, 10, "late");
    write(ContainerEntity.TYPE_KEY.name(), C2, new ContainerEntity.PreemptionRequested(preemption));
    write(ApplicationEntity.TYPE_KEY.name(), APP2, new ApplicationEntity.PreemptionSuffered(preemption));
    write(ApplicationEntity.TYPE_KEY.name(), APP3, new ApplicationEntity.Submitted(submission(APP3), 9));
  }

  private static Submission submission(String appId) {
    return new Submission(appId, "shell", "alice", "default", 0, "YARN", List.of(), new Resource(1024, 1),
        new ContainerLaunchContext(List.of("true"), Map.of()), 2);
  }

  private static ContainerEntity.Allocation allocation(String id, boolean am) {
    return new ContainerEntity.Allocation(id, APP1, ATTEMPT1, NODE, NODE, new Resource(1024, 1), 0, -1, am);
  }

  private void write(String type, String id, Object... events) {
    String persistenceId = PersistenceId.of(type, id).id();
    ActorRef<Write> writer = writers.computeIfAbsent(persistenceId,
        pid -> kit.spawn(new Writer(PersistenceId.ofUniqueId(pid)), "writer-" + writers.size()));
    TestProbe<Done> done = kit.createTestProbe();
    writer.tell(new Write(List.of(events), done.ref()));
    done.expectMessage(WAIT, Done.getInstance());
  }

  private static <T> T await(CompletionStage<T> stage) throws Exception {
    return stage.toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  record Write(List<Object> events, ActorRef<Done> replyTo) {}

  /** Persists whatever events it is given under an entity's persistence id, as the entity would. */
  private static final class Writer extends EventSourcedBehavior<Write, Object, Integer> {
    Writer(PersistenceId id) {
      super(id);
    }

    @Override
    public Integer emptyState() {
      return 0;
    }

    @Override
    public CommandHandler<Write, Object, Integer> commandHandler() {
      return newCommandHandlerBuilder().forAnyState().onCommand(Write.class, (state, w) ->
          Effect().persist(w.events()).thenReply(w.replyTo(), s -> Done.getInstance())).build();
    }

    @Override
    public EventHandler<Integer, Object> eventHandler() {
      return newEventHandlerBuilder().forAnyState().onAnyEvent((state, e) -> state + 1);
    }
  }
}
