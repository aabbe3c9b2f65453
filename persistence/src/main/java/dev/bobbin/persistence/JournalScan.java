package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.LongPredicate;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Folds every event of some entity types, entity by entity in sequence order, with one streaming
 * query on the journal table. It sees every acknowledged write, which a query by tag does not
 * (the read journal only emits orderings its sequence tracker has caught up with), and costs one
 * round trip instead of one per entity as {@code currentEventsByPersistenceId} would.
 *
 * <p>It reads the table once in ordering order, whatever the types: one pass over the rows costs
 * less than a query per type, each of which reads the whole table to pick its rows out. Ordering
 * order is each entity's sequence order because an entity has one writer, which writes its next
 * events only once the previous write is acknowledged.
 */
public final class JournalScan {
  private static final Logger log = LoggerFactory.getLogger(JournalScan.class);
  // Deleted rows are read too (and not folded), so that only orderings never written look missing.
  private static final String QUERY = "SELECT \"persistence_id\", \"event_payload\", \"event_ser_id\", "
      + "\"event_ser_manifest\", \"ordering\", \"deleted\" FROM \"event_journal\" "
      + "WHERE \"ordering\" > ? AND \"ordering\" <= ? ORDER BY \"ordering\"";
  private static final String HIGHEST = "SELECT MAX(\"ordering\") FROM \"event_journal\"";

  private JournalScan() {}

  /** One entity type to fold; its states are there once the scan has completed. */
  public static final class Fold<S> {
    private final String entityType;
    private final Function<String, S> empty;
    private final BiFunction<S, Object, S> apply;
    private final Map<String, S> states = new HashMap<>();
    /** With {@link #leavingOut}: each entity's rows not folded yet, in ordering order. */
    private final Map<String, List<Row>> held = new HashMap<>();
    private BiPredicate<String, List<String>> leaveOut;
    private int maxHeld;
    private int heldRows;

    /**
     * @param entityType the entity type key's name; persistence ids are {@code type|entityId}
     * @param empty an entity's state before its first event, by entity id
     * @param apply the entity's event handler
     */
    public Fold(String entityType, Function<String, S> empty, BiFunction<S, Object, S> apply) {
      this.entityType = entityType;
      this.empty = empty;
      this.apply = apply;
    }

    /** States to fold the scanned events onto, as of a checkpoint; before the scan. */
    public void seed(Map<String, S> from) {
      states.putAll(from);
    }

    /** Each entity's id and the state its events fold to. */
    public Map<String, S> states() {
      return states;
    }

    /**
     * Holds this type's rows undecoded until the scan has read them all, and then leaves out of
     * {@link #states} every entity that {@code leaveOut} names, decoding none of its rows. It is
     * given the entity's id and the manifests of its rows in this scan, in order. For a caller that
     * would drop such an entity anyway once the scan is folded, for which decoding is most of a
     * scan's cost. Past {@link #MAX_HELD} rows held, the held ones are folded as usual: a long
     * range costs the decoding again, not its size in memory.
     */
    public Fold<S> leavingOut(BiPredicate<String, List<String>> leaveOut) {
      return leavingOut(leaveOut, MAX_HELD);
    }

    Fold<S> leavingOut(BiPredicate<String, List<String>> leaveOut, int maxHeld) {
      this.leaveOut = leaveOut;
      this.maxHeld = maxHeld;
      return this;
    }

    private void add(Serialization serialization, Row r) {
      if (leaveOut == null) {
        add(r.entityId, decode(serialization, r));
        return;
      }
      held.computeIfAbsent(r.entityId, id -> new ArrayList<>(4)).add(r);
      if (++heldRows > maxHeld) foldHeld(serialization, (id, manifests) -> false);
    }

    private void foldHeld(Serialization serialization, BiPredicate<String, List<String>> drop) {
      held.forEach((entityId, rows) -> {
        if (drop.test(entityId, rows.stream().map(Row::manifest).toList())) {
          states.remove(entityId);
        } else {
          for (Row r : rows) add(entityId, decode(serialization, r));
        }
      });
      held.clear();
      heldRows = 0;
    }

    private void finish(Serialization serialization) {
      if (leaveOut != null) foldHeld(serialization, leaveOut);
    }

    private void add(String entityId, Object event) {
      states.put(entityId, apply.apply(states.computeIfAbsent(entityId, empty), event));
    }
  }

  /** The most rows a {@link Fold#leavingOut} fold holds undecoded: a few tens of megabytes. */
  static final int MAX_HELD = 200_000;

  private static Object decode(Serialization serialization, Row r) {
    return serialization.deserialize(r.payload, r.serializerId, r.manifest).get();
  }

  /**
   * What a scan read: how many events, and the highest ordering it went through (where it started
   * if it read none). A scan that stopped before a missing ordering went through the one below it.
   */
  public record Scanned(long events, long highestOrdering) {}

  /** The highest ordering in the journal, 0 when it is empty. */
  public static CompletionStage<Long> highestOrdering(ActorSystem<?> system) {
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = JournalDatabase.source(system).createConnection();
          PreparedStatement st = conn.prepareStatement(HIGHEST);
          ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      } catch (SQLException e) {
        throw new IllegalStateException("could not read the journal's highest ordering: " + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  /**
   * Folds the events whose ordering is above {@code after} and at most {@code upTo}, in one pass
   * on the blocking dispatcher; completes when every fold has its states. One thread reads the rows while another deserializes and folds them, batch by batch:
   * the two halves cost about the same, and a member reads its journal while it starts, when the
   * JIT compiler takes much of the CPU.
   */
  public static CompletionStage<Scanned> foldRange(ActorSystem<?> system, List<Fold<?>> folds, long after,
      long upTo) {
    return foldRange(system, folds, after, upTo, missing -> true);
  }

  /**
   * The same, except that it stops before a missing ordering unless {@code passMissing} allows it.
   * An ordering is missing while the write that took it has not committed yet (orderings are
   * taken when a write starts and seen when it commits, so a later one can be seen first), and for
   * good if that write failed or its process died. A reader that must not miss a late commit
   * stops there and looks again later.
   *
   * @param passMissing given the first ordering of a run of missing ones, whether to go past it
   */
  public static CompletionStage<Scanned> foldRange(ActorSystem<?> system, List<Fold<?>> folds, long after,
      long upTo, LongPredicate passMissing) {
    slick.jdbc.JdbcDataSource source = JournalDatabase.source(system);
    Serialization serialization = SerializationExtension.get(system);
    Map<String, Fold<?>> byType = new HashMap<>();
    for (Fold<?> f : folds) byType.put(f.entityType, f);
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    Handoff handoff = new Handoff();
    long started = System.nanoTime();
    CompletableFuture<Scanned> read = CompletableFuture.supplyAsync(() -> {
      try {
        return readRows(source, byType, after, upTo, passMissing, handoff);
      } catch (RuntimeException e) {
        handoff.abandon();
        throw e;
      }
    }, blocking);
    CompletableFuture<Void> folded = CompletableFuture.runAsync(() -> {
      try {
        for (List<Row> batch; !(batch = handoff.take()).isEmpty(); ) {
          for (Row r : batch) r.fold.add(serialization, r);
        }
        for (Fold<?> f : folds) f.finish(serialization);
      } catch (RuntimeException e) {
        handoff.abandon();
        throw e;
      }
    }, blocking);
    return read.thenCombine(folded, (scanned, done) -> {
      log.info("Journal scan folded {} events of {} after ordering {} in {} ms", scanned.events(), byType.keySet(),
          after, (System.nanoTime() - started) / 1_000_000);
      return scanned;
    });
  }

  private static Scanned readRows(slick.jdbc.JdbcDataSource source, Map<String, Fold<?>> byType, long after,
      long upTo, LongPredicate passMissing, Handoff handoff) {
    long events = 0;
    long highest = after;
    try (Connection conn = source.createConnection()) {
      // PostgreSQL streams rows with a cursor only inside a transaction.
      conn.setAutoCommit(false);
      try (PreparedStatement st = conn.prepareStatement(QUERY)) {
        st.setFetchSize(1000);
        st.setLong(1, after);
        st.setLong(2, upTo);
        List<Row> batch = new ArrayList<>(BATCH);
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) {
            long ordering = rs.getLong(5);
            if (ordering > highest + 1 && !passMissing.test(highest + 1)) break;
            highest = ordering;
            if (rs.getBoolean(6)) continue;
            String persistenceId = rs.getString(1);
            int bar = persistenceId.indexOf('|');
            Fold<?> fold = bar < 0 ? null : byType.get(persistenceId.substring(0, bar));
            if (fold == null) continue;
            batch.add(new Row(fold, persistenceId.substring(bar + 1), rs.getBytes(2), rs.getInt(3), rs.getString(4)));
            events++;
            if (batch.size() == BATCH) {
              handoff.put(batch);
              batch = new ArrayList<>(BATCH);
            }
          }
        }
        if (!batch.isEmpty()) handoff.put(batch);
        handoff.put(List.of());
      } finally {
        conn.rollback();
        conn.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("could not read the " + byType.keySet() + " events: " + e.getMessage(), e);
    }
    return new Scanned(events, highest);
  }

  private static final int BATCH = 512;

  private record Row(Fold<?> fold, String entityId, byte[] payload, int serializerId, String manifest) {}

  /** Batches from the reading thread to the folding one; an empty batch is the end. */
  private static final class Handoff {
    private final BlockingQueue<List<Row>> queue = new ArrayBlockingQueue<>(16);
    private volatile boolean abandoned;

    void put(List<Row> batch) {
      try {
        while (!queue.offer(batch, 100, TimeUnit.MILLISECONDS)) {
          if (abandoned) throw new IllegalStateException("the journal scan's folding side failed");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    List<Row> take() {
      try {
        for (List<Row> batch; ; ) {
          if ((batch = queue.poll(100, TimeUnit.MILLISECONDS)) != null) return batch;
          if (abandoned) throw new IllegalStateException("the journal scan's reading side failed");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    /** The other side is told to give up rather than wait for ever. */
    void abandon() {
      abandoned = true;
    }
  }
}
