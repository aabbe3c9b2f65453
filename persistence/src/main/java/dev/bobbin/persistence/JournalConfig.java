package dev.bobbin.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.persistence.fence.FencedJournalDao;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns {@code bobbin.persistence} into pekko-persistence-jdbc configuration: journal
 * {@code jdbc-journal}, snapshot store {@code jdbc-snapshot-store} and read journal
 * {@code jdbc-read-journal}, all on one connection pool; and pekko-projection-jdbc's, whose
 * projections keep their offsets in the same database ({@link JournalSession}).
 */
public final class JournalConfig {
  /** The pekko-persistence-jdbc shared database all three plugins use. */
  static final String SHARED_DB = "slick";
  private static final String PROJECTION = "pekko.projection.jdbc";

  private JournalConfig() {}

  /** Configuration to use as {@code overlay(root, dataDir).withFallback(root)}. */
  public static Config overlay(Config root, Path dataDir) {
    PersistenceSettings settings = PersistenceSettings.from(root);
    Map<String, Object> m = new HashMap<>();
    m.put("pekko.persistence.journal.plugin", "jdbc-journal");
    m.put("pekko.persistence.snapshot-store.plugin", "jdbc-snapshot-store");
    for (String plugin : new String[] {"jdbc-journal", "jdbc-snapshot-store", "jdbc-read-journal"}) {
      m.put(plugin + ".use-shared-db", SHARED_DB);
    }
    // Its eventsByTag poll costs what the tag's new events cost, not what all events ever written do.
    m.put("jdbc-read-journal.dao", TagRangeReadJournalDao.class.getName());
    String refresh = settings.queryRefreshInterval().toMillis() + "ms";
    m.put("jdbc-read-journal.refresh-interval", refresh);
    // eventsByTag only emits up to the highest gap-free ordering, which this actor polls for;
    // at its 1s default it, not refresh-interval, would bound how far read models lag.
    m.put("jdbc-read-journal.journal-sequence-retrieval.query-delay", refresh);
    // Each eventsByTag poll asks that actor; its 1s default failed read-model streams on a busy
    // member (a GC pause or a journal catching up is enough), restarting them from scratch.
    m.put("jdbc-read-journal.journal-sequence-retrieval.ask-timeout", "10s");

    // Writes waiting for their batch; one beyond it fails at once (and failures open the journal's
    // circuit breaker). Its default of 1,000 is below what a busy member has pending: the scheduler
    // alone may have 2,000 allocations in flight (bobbin.scheduler.max-allocations-in-flight).
    m.put("jdbc-journal.bufferSize", 20_000);
    // Pekko passes every recovery's replay through a ReplayFilter, an actor the journal's one actor
    // makes for it, which drops events an old incarnation interleaved with a new one's. Here the
    // table's unique key on (persistence_id, sequence_number) refuses the second incarnation's
    // write instead (JournalContract), so the filter never has anything to drop; turning it off
    // saves the journal actor a child actor per entity start.
    m.put("jdbc-journal.replay-filter.mode", "off");
    // Each plugin's circuit breaker opens after max-failures calls failed or outlived call-timeout in
    // a row, and then fails every call at once until reset-timeout has passed, when one call is let
    // through to try. Pekko's reset times (30 s for the journal, 60 s for the snapshot store) kept
    // a member failing writes and entity recoveries that long after its database was back; at 2 s
    // a member serves again about 2 s after the database does. call-timeout stays 10 s: a batch
    // that waits its turn under load is not a failure.
    for (String plugin : new String[] {"jdbc-journal", "jdbc-snapshot-store"}) {
      m.put(plugin + ".circuit-breaker.max-failures", 10);
      m.put(plugin + ".circuit-breaker.call-timeout", "10s");
      m.put(plugin + ".circuit-breaker.reset-timeout", "2s");
    }

    if (settings.fencing().enabled()) {
      // Writes go through the lease check; shards and singletons take their leases from the journal.
      m.put("jdbc-journal.dao", FencedJournalDao.class.getName());
      String lease = PersistenceSettings.PREFIX + ".fencing.lease";
      String retry = settings.fencing().retryInterval().toMillis() + "ms";
      for (String owner : new String[] {"pekko.cluster.sharding", "pekko.cluster.singleton"}) {
        m.put(owner + ".use-lease", lease);
        m.put(owner + ".lease-retry-interval", retry);
      }
    }

    String db = "pekko-persistence-jdbc.shared-databases." + SHARED_DB;
    int connections;
    switch (settings.journal()) {
      case EMBEDDED -> {
        m.put(db + ".profile", "slick.jdbc.H2Profile$");
        m.put(db + ".db.driver", "org.h2.Driver");
        m.put(db + ".db.url", h2Url(dataDir));
        m.put(db + ".db.user", "sa");
        m.put(db + ".db.password", "");
        connections = settings.embeddedMaxConnections();
        // One batch insert at a time: H2 commits one transaction at a time anyway, and the writes
        // that queue meanwhile go into the next batch, one transaction and one file write for many
        // entities (group commit). Eight in parallel, the default, gives mostly single-row commits.
        m.put("jdbc-journal.parallelism", 1);
        m.put(PROJECTION + ".dialect", "h2-dialect");
      }
      case POSTGRES -> {
        PersistenceSettings.Postgres pg = settings.postgres();
        m.put(db + ".profile", "slick.jdbc.PostgresProfile$");
        m.put(db + ".db.driver", "org.postgresql.Driver");
        m.put(db + ".db.url", pg.url());
        m.put(db + ".db.user", pg.user());
        m.put(db + ".db.password", pg.password());
        connections = pg.maxConnections();
        m.put(PROJECTION + ".dialect", "postgres-dialect");
      }
      default -> throw new IllegalStateException("unhandled journal " + settings.journal());
    }
    // Slick wants as many connections as threads, or a busy pool can deadlock.
    m.put(db + ".db.numThreads", connections);
    m.put(db + ".db.maxConnections", connections);
    m.put(db + ".db.minConnections", connections);
    m.put(db + ".db.connectionTimeout", settings.connectionTimeout().toMillis());
    // The threads on which projections run their handlers and offset queries, each holding a pooled
    // connection meanwhile: pekko-projection-jdbc wants as many as the pool has connections.
    m.put(PROJECTION + ".blocking-jdbc-dispatcher.thread-pool-executor.fixed-pool-size", connections);
    return ConfigFactory.parseMap(m, "bobbin.persistence (JournalConfig.overlay)");
  }

  /** The H2 database of the embedded journal: {@code <dataDir>/journal/bobbin.mv.db}. */
  static String h2Url(Path dataDir) {
    Path file = dataDir.toAbsolutePath().normalize().resolve("journal").resolve("bobbin");
    if (file.toString().contains(";")) {
      throw new SettingsException("bobbin.data-dir", "must not contain ';' (H2 URL separator): " + dataDir);
    }
    // WRITE_DELAY=0: H2 writes each commit to the file before returning instead of up to 500ms
    //   later, so an acknowledged event survives kill -9 (EmbeddedKillTest loses every write
    //   without it). The price is disk space: each commit appends a ~20 KB chunk that H2 reuses
    //   only after its 45 s retention time, so the file carries about 20 KB x the commits of the
    //   last 45 s (150 MB at a sustained 150 commits/s, little when idle). Not fsynced: a power
    //   failure can still lose recent writes; production uses PostgreSQL.
    // FILE_LOCK=FS: an OS lock that dies with the process, so a restart after kill -9 opens the
    //   database at once, while a second live process on the same dir is refused.
    // DB_CLOSE_ON_EXIT=FALSE: H2's own shutdown hook must not close the database under Pekko's
    //   coordinated shutdown, which may still be writing.
    return "jdbc:h2:file:" + file + ";WRITE_DELAY=0;FILE_LOCK=FS;DB_CLOSE_ON_EXIT=FALSE";
  }
}
