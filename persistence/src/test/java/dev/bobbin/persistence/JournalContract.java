package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import dev.bobbin.persistence.testing.TestJournals;
import dev.bobbin.protocol.CborSerializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.pekko.Done;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.persistence.query.Sequence;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** What every journal must do; subclasses supply the database. */
abstract class JournalContract {
  /** First contact includes opening the pool and recovery; later replies come fast. */
  static final Duration FIRST = Duration.ofSeconds(20);
  static final Duration WAIT = Duration.ofSeconds(10);

  private final List<ActorTestKit> kits = new ArrayList<>();
  private String name;

  /** The same database on every call within one test. */
  abstract Config config();

  @AfterEach
  void shutDown() {
    kits.forEach(ActorTestKit::shutdownTestKit);
  }

  @BeforeEach
  void name(TestInfo info) {
    name = info.getTestMethod().orElseThrow().getName();
  }

  /** A new ActorSystem on the test's database, with the schema ensured. */
  ActorTestKit startSystem() {
    ActorTestKit kit = startSystemWithoutSchema();
    TestJournals.ensureSchema(kit.system());
    return kit;
  }

  /** As {@link #startSystem()}, with {@code hocon} over the journal's configuration. */
  ActorTestKit startSystem(String name, String hocon) {
    ActorTestKit kit = ActorTestKit.create(getClass().getSimpleName() + "-" + name,
        com.typesafe.config.ConfigFactory.parseString(hocon).withFallback(config()));
    kits.add(kit);
    TestJournals.ensureSchema(kit.system());
    return kit;
  }

  ActorTestKit startSystemWithoutSchema() {
    ActorTestKit kit = ActorTestKit.create(getClass().getSimpleName() + "-" + kits.size(), config());
    kits.add(kit);
    return kit;
  }

  /** Stops a system the way a member goes down, leaving only the database behind. */
  void stopSystem(ActorTestKit kit) {
    kit.shutdownTestKit();
    kits.remove(kit);
  }

  static Ledger.Summary add(ActorTestKit kit, ActorRef<Ledger.Command> ledger, String item, Duration wait) {
    TestProbe<StatusReply<Ledger.Summary>> reply = kit.createTestProbe();
    ledger.tell(new Ledger.Add(item, reply.ref()));
    return reply.receiveMessage(wait).getValue();
  }

  static Ledger.Summary get(ActorTestKit kit, ActorRef<Ledger.Command> ledger, Duration wait) {
    TestProbe<Ledger.Summary> reply = kit.createTestProbe();
    ledger.tell(new Ledger.Get(reply.ref()));
    return reply.receiveMessage(wait);
  }

  ActorRef<Ledger.Command> spawn(ActorTestKit kit, String id, TestProbe<Ledger.Observed> observer) {
    return kit.spawn(Ledger.create(name + "-" + id, tag(), observer.ref()));
  }

  String tag() {
    return "ledger-" + name;
  }

  @Test
  void eventsSurviveARestartOfTheActorSystem() {
    ActorTestKit first = startSystem();
    TestProbe<Ledger.Observed> observer = first.createTestProbe();
    ActorRef<Ledger.Command> ledger = spawn(first, "a", observer);
    add(first, ledger, "x", FIRST);
    add(first, ledger, "y", WAIT);
    stopSystem(first);

    ActorTestKit second = startSystem();
    ActorRef<Ledger.Command> recovered = spawn(second, "a", second.createTestProbe());
    assertThat(get(second, recovered, FIRST).items()).containsExactly("x", "y");
    // Writing on continues the sequence rather than clashing with the recovered events.
    assertThat(add(second, recovered, "z", WAIT).items()).containsExactly("x", "y", "z");
  }

  @Test
  void snapshotsAreWrittenAndRecoveryStartsFromThem() {
    ActorTestKit first = startSystem();
    TestProbe<Ledger.Observed> observer = first.createTestProbe();
    ActorRef<Ledger.Command> ledger = spawn(first, "s", observer);
    add(first, ledger, "1", FIRST);
    for (int i = 2; i <= 7; i++) add(first, ledger, Integer.toString(i), WAIT);
    // Snapshots at 3 and 6; the one at 6 deletes the events up to 3 (keep one snapshot's worth).
    observer.fishForMessage(WAIT, o -> o.equals(new Ledger.Observed("events-deleted", 3))
        ? FishingOutcomes.complete()
        : FishingOutcomes.continueAndIgnore());
    stopSystem(first);

    ActorTestKit second = startSystem();
    List<Long> remaining = ReadJournals.of(second.system())
        .currentEventsByPersistenceId("Ledger|" + name + "-s", 0, Long.MAX_VALUE)
        .map(EventEnvelope::sequenceNr)
        .runWith(Sink.seq(), second.system())
        .toCompletableFuture().join();
    assertThat(remaining).containsExactly(4L, 5L, 6L, 7L);

    // Items 1-3 now exist only in a snapshot.
    ActorRef<Ledger.Command> recovered = spawn(second, "s", second.createTestProbe());
    assertThat(get(second, recovered, FIRST).items()).containsExactly("1", "2", "3", "4", "5", "6", "7");
  }

  /** An event as a read model sees it. */
  record Seen(String persistenceId, long sequenceNr, String item, long offset) implements CborSerializable {}

  @Test
  void eventsByTagDeliversTaggedEventsInOrderAndKeepsTailing() throws Exception {
    ActorTestKit kit = startSystem();
    TestProbe<Ledger.Observed> observer = kit.createTestProbe();
    ActorRef<Ledger.Command> a = spawn(kit, "a", observer);
    ActorRef<Ledger.Command> b = spawn(kit, "b", observer);
    add(kit, a, "a1", FIRST);
    add(kit, b, "b1", FIRST);
    add(kit, b, "b2", WAIT);
    add(kit, a, "a2", WAIT);

    List<Seen> past = ReadJournals.of(kit.system()).eventsByTag(tag(), Offset.noOffset())
        .map(JournalContract::seen)
        .take(4)
        .runWith(Sink.seq(), kit.system())
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(past).extracting(Seen::item).containsExactly("a1", "b1", "b2", "a2");
    assertThat(past).extracting(Seen::offset).isSorted().doesNotHaveDuplicates();

    // A read model resumes after the last offset it saw and then sees new events live.
    TestProbe<Seen> live = kit.createTestProbe();
    ReadJournals.of(kit.system()).eventsByTag(tag(), Offset.sequence(past.get(3).offset()))
        .map(JournalContract::seen)
        .runWith(Sink.foreach(live.ref()::tell), kit.system());
    add(kit, b, "b3", WAIT);
    add(kit, a, "a3", WAIT);
    assertThat(live.receiveMessage(WAIT).item()).isEqualTo("b3");
    assertThat(live.receiveMessage(WAIT).item()).isEqualTo("a3");
    live.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void eventsByTagPagesThroughMoreEventsThanOnePollAndSkipsOtherTags() throws Exception {
    ActorTestKit kit = startSystem("paged", "jdbc-read-journal.max-buffer-size = 3");
    // One event per ledger, so that no snapshot deletes any of them.
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ActorRef<Ledger.Command> other = kit.spawn(Ledger.create(name + "-o" + i, tag() + "-other",
          kit.<Ledger.Observed>createTestProbe().ref()));
      add(kit, other, "o" + i, FIRST);
      add(kit, spawn(kit, "t" + i, kit.createTestProbe()), "t" + i, FIRST);
      expected.add("t" + i);
    }

    List<Seen> seen = ReadJournals.of(kit.system()).eventsByTag(tag(), Offset.noOffset())
        .map(JournalContract::seen)
        .take(10)
        .runWith(Sink.seq(), kit.system())
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(seen).extracting(Seen::item).containsExactlyElementsOf(expected);
    assertThat(seen).extracting(Seen::offset).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void eventsByTagReadsPastDeletedEventsInAFullPage() throws Exception {
    ActorTestKit kit = startSystem("deleted", "jdbc-read-journal.max-buffer-size = 1");
    TestProbe<Ledger.Observed> observer = kit.createTestProbe();
    ActorRef<Ledger.Command> ledger = spawn(kit, "d", observer);
    add(kit, ledger, "1", FIRST);
    for (int i = 2; i <= 7; i++) add(kit, ledger, Integer.toString(i), WAIT);
    // As above: events 1-3 deleted; the journal keeps event 3's row, marked deleted, and its tag.
    observer.fishForMessage(WAIT, o -> o.equals(new Ledger.Observed("events-deleted", 3))
        ? FishingOutcomes.complete()
        : FishingOutcomes.continueAndIgnore());

    // A page of one tagged id: the first is the deleted event's. An empty page would tell the read
    // journal that nothing is left up to the newest ordering, and it would skip events 4-7.
    List<Seen> seen = ReadJournals.of(kit.system()).eventsByTag(tag(), Offset.noOffset())
        .map(JournalContract::seen)
        .take(4)
        .runWith(Sink.seq(), kit.system())
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(seen).extracting(Seen::item).containsExactly("4", "5", "6", "7");
  }

  static Seen seen(EventEnvelope e) {
    return new Seen(e.persistenceId(), e.sequenceNr(), ((Ledger.Added) e.event()).item(),
        ((Sequence) e.offset()).value());
  }

  @Test
  void aSecondWriterOfTheSameEntityIsRefusedAndTheFirstWriteKept() {
    ActorTestKit kit = startSystem();
    // Two incarnations of one entity, as two members in a split brain would run it: both have
    // recovered the same state, so both now write sequence number 1.
    ActorRef<Ledger.Command> one = spawn(kit, "twice", kit.createTestProbe());
    ActorRef<Ledger.Command> other = spawn(kit, "twice", kit.createTestProbe());
    assertThat(get(kit, one, FIRST).items()).isEmpty();
    assertThat(get(kit, other, FIRST).items()).isEmpty();
    assertThat(add(kit, one, "mine", WAIT).items()).containsExactly("mine");

    TestProbe<StatusReply<Ledger.Summary>> refused = kit.createTestProbe();
    other.tell(new Ledger.Add("theirs", refused.ref()));
    // The journal refuses the write and the incarnation stops without acknowledging it.
    refused.expectTerminated(other, WAIT);
    refused.expectNoMessage(Duration.ofMillis(200));

    ActorRef<Ledger.Command> recovered = spawn(kit, "twice", kit.createTestProbe());
    assertThat(get(kit, recovered, FIRST).items()).containsExactly("mine");
  }

  @Test
  void ensuringTheSchemaConcurrentlyAndAgainIsHarmless() throws Exception {
    ActorTestKit kit = startSystemWithoutSchema();
    // As several RM members starting together on an empty database would.
    CompletableFuture<?>[] together = IntStream.range(0, 4)
        .mapToObj(i -> JournalSchema.ensure(kit.system()).toCompletableFuture())
        .toArray(CompletableFuture[]::new);
    CompletableFuture.allOf(together).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    for (CompletableFuture<?> f : together) assertThat(f.get()).isEqualTo(Done.getInstance());
    TestJournals.ensureSchema(kit.system());
    TestJournals.ensureSchema(kit.system());

    ActorRef<Ledger.Command> ledger = spawn(kit, "e", kit.createTestProbe());
    assertThat(add(kit, ledger, "still works", FIRST).items()).containsExactly("still works");
  }

  @Test
  void aScanFoldsEveryEntityOfATypeInSequenceOrderRightAfterTheWrites() throws Exception {
    ActorTestKit kit = startSystem();
    ActorRef<Ledger.Command> a = spawn(kit, "a", kit.createTestProbe());
    ActorRef<Ledger.Command> b = spawn(kit, "b", kit.createTestProbe());
    add(kit, a, "a1", FIRST);
    add(kit, b, "b1", FIRST);
    add(kit, a, "a2", WAIT);
    add(kit, b, "b2", WAIT);
    add(kit, a, "a3", WAIT);
    var items = itemsFold();
    foldAfter(kit, items, 0, missing -> true);
    java.util.Map<String, List<String>> folded = items.states();
    // Other tests may share the database; only this test's ledgers are looked at.
    folded.keySet().removeIf(id -> !id.startsWith(name + "-"));
    assertThat(folded).containsOnly(
        java.util.Map.entry(name + "-a", List.of("a1", "a2", "a3")),
        java.util.Map.entry(name + "-b", List.of("b1", "b2")));
  }

  @Test
  void aScanOfSeveralTypesGivesEachItsOwnEntitiesAndAFailingFoldFailsTheScan() throws Exception {
    ActorTestKit kit = startSystem();
    add(kit, spawn(kit, "c", kit.createTestProbe()), "c1", FIRST);
    var ledgers = new JournalScan.Fold<>("Ledger", id -> 0, (Integer n, Object e) -> n + 1);
    var others = new JournalScan.Fold<>("NoSuchType", id -> 0, (Integer n, Object e) -> n + 1);
    JournalScan.foldRange(kit.system(), List.of(ledgers, others), 0, Long.MAX_VALUE).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(ledgers.states()).containsEntry(name + "-c", 1);
    assertThat(others.states()).isEmpty();

    var failing = new JournalScan.Fold<>("Ledger", id -> 0, (Integer n, Object e) -> {
      throw new IllegalArgumentException("cannot fold " + e);
    });
    assertThat(JournalScan.foldRange(kit.system(), List.of(failing), 0, Long.MAX_VALUE).toCompletableFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withRootCauseInstanceOf(IllegalArgumentException.class);
  }
  @Test
  void aRangeScanFoldsOnlyTheEventsAfterAnOrderingOntoSeededStates() throws Exception {
    ActorTestKit kit = startSystem();
    ActorRef<Ledger.Command> a = spawn(kit, "a", kit.createTestProbe());
    add(kit, a, "a1", FIRST);
    add(kit, a, "a2", WAIT);
    long seen = JournalScan.highestOrdering(kit.system()).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    add(kit, a, "a3", WAIT);
    var ledgers = new JournalScan.Fold<>("Ledger", id -> List.<String>of(), (List<String> items, Object e) -> {
      List<String> next = new ArrayList<>(items);
      next.add(((Ledger.Added) e).item());
      return next;
    });
    ledgers.seed(java.util.Map.of(name + "-a", List.of("from the checkpoint")));
    JournalScan.Scanned scanned = JournalScan.foldRange(kit.system(), List.of(ledgers), seen, Long.MAX_VALUE)
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(ledgers.states()).containsEntry(name + "-a", List.of("from the checkpoint", "a3"));
    assertThat(scanned.highestOrdering()).isGreaterThan(seen);

    var upToSeen = new JournalScan.Fold<>("Ledger", id -> 0, (Integer n, Object e) -> n + 1);
    JournalScan.Scanned none = JournalScan.foldRange(kit.system(), List.of(upToSeen), seen, seen)
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(none).isEqualTo(new JournalScan.Scanned(0, seen));
    assertThat(upToSeen.states()).isEmpty();
  }

  @Test
  void aRangeScanCanStopBeforeAMissingOrderingAndGoesOnOnceItIsThere() throws Exception {
    ActorTestKit kit = startSystem();
    ActorRef<Ledger.Command> a = spawn(kit, "a", kit.createTestProbe());
    add(kit, a, "a1", FIRST);
    long before = highestOrdering(kit);
    add(kit, a, "a2", WAIT);
    long missing = highestOrdering(kit);
    add(kit, a, "a3", WAIT);
    long last = highestOrdering(kit);
    // a2's row taken away stands for a write that took its ordering and has not committed yet.
    String held = "held_" + Long.toHexString(System.nanoTime());
    jdbc(kit, "CREATE TABLE \"" + held + "\" AS SELECT * FROM \"event_journal\" WHERE \"ordering\" = " + missing);
    jdbc(kit, "DELETE FROM \"event_journal\" WHERE \"ordering\" = " + missing);

    var stopped = itemsFold();
    assertThat(foldAfter(kit, stopped, before, m -> false)).isEqualTo(new JournalScan.Scanned(0, missing - 1));
    assertThat(stopped.states()).isEmpty();
    var passed = itemsFold();
    assertThat(foldAfter(kit, passed, before, m -> m == missing)).isEqualTo(new JournalScan.Scanned(1, last));
    assertThat(passed.states()).containsEntry(name + "-a", List.of("a3"));

    jdbc(kit, "INSERT INTO \"event_journal\" SELECT * FROM \"" + held + "\"");
    var late = itemsFold();
    assertThat(foldAfter(kit, late, before, m -> false)).isEqualTo(new JournalScan.Scanned(2, last));
    assertThat(late.states()).containsEntry(name + "-a", List.of("a2", "a3"));
  }

  @Test
  void aFoldThatLeavesEntitiesOutDecodesNoneOfTheirEventsAndFoldsTheRestAsUsual() throws Exception {
    ActorTestKit kit = startSystem();
    ActorRef<Ledger.Command> a = spawn(kit, "a", kit.createTestProbe());
    ActorRef<Ledger.Command> b = spawn(kit, "b", kit.createTestProbe());
    ActorRef<Ledger.Command> c = spawn(kit, "c", kit.createTestProbe());
    add(kit, a, "left-a1", FIRST);
    add(kit, b, "kept-b1", FIRST);
    add(kit, c, "left-c1", FIRST);
    add(kit, a, "left-a2", WAIT);
    add(kit, b, "kept-b2", WAIT);
    for (int maxHeld : new int[] {JournalScan.MAX_HELD, 1}) {
      List<String> decoded = new ArrayList<>();
      java.util.Map<String, List<String>> manifests = new java.util.HashMap<>();
      var items = new JournalScan.Fold<>("Ledger", id -> List.<String>of(), (List<String> before, Object e) -> {
        decoded.add(((Ledger.Added) e).item());
        List<String> next = new ArrayList<>(before);
        next.add(((Ledger.Added) e).item());
        return next;
      }).leavingOut((id, m) -> {
        manifests.put(id, m);
        return id.equals(name + "-a") || id.equals(name + "-c");
      }, maxHeld);
      // c was in the checkpoint; left out, it is gone from the states too.
      items.seed(java.util.Map.of(name + "-c", List.of("from the checkpoint")));
      foldAfter(kit, items, 0, missing -> true);
      java.util.Map<String, List<String>> folded = items.states();
      folded.keySet().removeIf(id -> !id.startsWith(name + "-"));
      decoded.removeIf(item -> !item.startsWith("left-") && !item.startsWith("kept-"));
      if (maxHeld == JournalScan.MAX_HELD) {
        assertThat(folded).containsOnly(java.util.Map.entry(name + "-b", List.of("kept-b1", "kept-b2")));
        assertThat(decoded).containsExactly("kept-b1", "kept-b2");
        assertThat(manifests.get(name + "-a")).hasSize(2).allSatisfy(m -> assertThat(m).endsWith("Added"));
      } else {
        // Past the limit what is held is folded as usual, so nothing is left out here.
        assertThat(folded).containsOnly(java.util.Map.entry(name + "-a", List.of("left-a1", "left-a2")),
            java.util.Map.entry(name + "-b", List.of("kept-b1", "kept-b2")),
            java.util.Map.entry(name + "-c", List.of("from the checkpoint", "left-c1")));
        assertThat(decoded).hasSize(5);
      }
    }
  }

  private static JournalScan.Fold<List<String>> itemsFold() {
    return new JournalScan.Fold<>("Ledger", id -> List.<String>of(), (List<String> items, Object e) -> {
      List<String> next = new ArrayList<>(items);
      next.add(((Ledger.Added) e).item());
      return next;
    });
  }

  private static JournalScan.Scanned foldAfter(ActorTestKit kit, JournalScan.Fold<?> fold, long after,
      java.util.function.LongPredicate passMissing) throws Exception {
    return JournalScan.foldRange(kit.system(), List.of(fold), after, Long.MAX_VALUE, passMissing)
        .toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static long highestOrdering(ActorTestKit kit) throws Exception {
    return JournalScan.highestOrdering(kit.system()).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static void jdbc(ActorTestKit kit, String sql) throws Exception {
    try (var conn = JournalDatabase.source(kit.system()).createConnection(); var st = conn.createStatement()) {
      st.execute(sql);
    }
  }

  @Test
  void theLatestCheckpointIsReadBackAndReplacesTheOlderOnes() throws Exception {
    ActorTestKit kit = startSystem();
    String checkpoint = "checkpoint-" + name;
    assertThat(JournalCheckpoints.latest(kit.system(), checkpoint).toCompletableFuture()
        .get(FIRST.toMillis(), TimeUnit.MILLISECONDS)).isEmpty();
    var first = List.of(new Ledger.State(List.of("x")), new Ledger.State(List.of("y", "z")));
    JournalCheckpoints.write(kit.system(), checkpoint, 5, first).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(JournalCheckpoints.latest(kit.system(), checkpoint).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .contains(new JournalCheckpoints.Checkpoint(5, List.of(first.toArray())));

    var second = List.of(new Ledger.State(List.of("w")));
    JournalCheckpoints.write(kit.system(), checkpoint, 9, second).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    assertThat(JournalCheckpoints.latest(kit.system(), checkpoint).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .contains(new JournalCheckpoints.Checkpoint(9, List.of(second.toArray())));
    assertThat(checkpointRows(kit, checkpoint)).isEqualTo(1);

    // A second writer of the same checkpoint is refused and leaves the first one whole.
    assertThat(JournalCheckpoints.write(kit.system(), checkpoint, 9, first).toCompletableFuture())
        .failsWithin(WAIT)
        .withThrowableOfType(java.util.concurrent.ExecutionException.class)
        .withMessageContaining("could not write checkpoint");
    assertThat(JournalCheckpoints.latest(kit.system(), checkpoint).toCompletableFuture()
        .get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .contains(new JournalCheckpoints.Checkpoint(9, List.of(second.toArray())));
  }

  private static long checkpointRows(ActorTestKit kit, String checkpoint) throws Exception {
    try (var conn = JournalDatabase.source(kit.system()).createConnection();
        var st = conn.prepareStatement("SELECT COUNT(*) FROM \"journal_checkpoint\" WHERE \"name\" = ?")) {
      st.setString(1, checkpoint);
      try (var rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
