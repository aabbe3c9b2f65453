package dev.bobbin.persistence;

import dev.bobbin.persistence.fence.LeaseTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the journal, tag and snapshot tables if they are missing. Safe to run on every start,
 * also by several RM members at once; run it before any entity recovers.
 *
 * <p>pekko-persistence-jdbc's {@code SchemaUtils.createIfNotExists} exists in 1.1.1, but it
 * ignores every SQL error (so a failed creation looks like success) and its scripts create the
 * ordering index without IF NOT EXISTS; hence our own idempotent copies of its DDL.
 */
public final class JournalSchema {
  private static final Logger log = LoggerFactory.getLogger(JournalSchema.class);
  /** Serialises concurrent schema creation by several RM members on one PostgreSQL database. */
  private static final long POSTGRES_LOCK_KEY = 0x626f6262696eL; // "bobbin"
  /**
   * An H2 journal belongs to one process, but several callers in it may ensure the schema at
   * once; H2's IF NOT EXISTS is not atomic against a concurrent creation of the same index.
   */
  private static final Object H2_LOCK = new Object();

  private JournalSchema() {}

  public static CompletionStage<Done> ensure(ActorSystem<?> system) {
    String plugin = system.settings().config().getString("pekko.persistence.journal.plugin");
    if (!"jdbc-journal".equals(plugin)) {
      return CompletableFuture.failedFuture(new IllegalStateException(
          "journal plugin is '" + plugin + "', not jdbc-journal: start the ActorSystem with "
              + "JournalConfig.overlay(root, dataDir).withFallback(root)"));
    }
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = JournalDatabase.source(system).createConnection()) {
        create(conn);
        return Done.getInstance();
      } catch (SQLException e) {
        throw new IllegalStateException("could not create the journal schema: " + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  /** Creates what is missing on an open connection (the same as {@link #ensure}). */
  public static void create(Connection conn) throws SQLException {
    String product = conn.getMetaData().getDatabaseProductName();
    switch (product) {
      case "H2" -> {
        conn.setAutoCommit(true);
        synchronized (H2_LOCK) {
          try (Statement st = conn.createStatement()) {
            for (String sql : script("h2.sql")) st.execute(sql);
          }
          addWrittenAt(conn);
        }
      }
      case "PostgreSQL" -> {
        // PostgreSQL DDL is transactional; concurrent CREATE ... IF NOT EXISTS can still clash
        // on catalog rows, so members take turns under an advisory lock.
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement()) {
          st.execute("SELECT pg_advisory_xact_lock(" + POSTGRES_LOCK_KEY + ")");
          for (String sql : script("postgres.sql")) st.execute(sql);
          addWrittenAt(conn);
          conn.commit();
        } catch (SQLException e) {
          conn.rollback();
          throw e;
        } finally {
          conn.setAutoCommit(true);
        }
      }
      default -> throw new SQLException("unsupported journal database " + product + " (H2 or PostgreSQL)");
    }
    log.info("Journal schema ready on {} at {}", product, conn.getMetaData().getURL());
  }

  /**
   * {@code event_journal.written_at}: the database's clock when an event was inserted (epoch ms),
   * which fencing and the chaos suite's checks read. Added once, so later starts never lock the
   * journal table for it; events written before it existed have none.
   */
  private static void addWrittenAt(Connection conn) throws SQLException {
    try (var rs = conn.getMetaData().getColumns(null, null, "event_journal", "written_at")) {
      if (rs.next()) return;
    }
    try (Statement st = conn.createStatement()) {
      st.execute("ALTER TABLE \"event_journal\" ADD COLUMN IF NOT EXISTS \"written_at\" BIGINT");
      st.execute("ALTER TABLE \"event_journal\" ALTER COLUMN \"written_at\" SET DEFAULT "
          + LeaseTable.nowExpression(conn));
    }
  }

  /** Statements of a bundled script, without comment lines. */
  private static List<String> script(String name) {
    try (InputStream in = JournalSchema.class.getResourceAsStream("schema/" + name)) {
      if (in == null) throw new IllegalStateException("missing resource schema/" + name);
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .filter(l -> !l.strip().startsWith("--"))
          .collect(Collectors.joining("\n"));
      return Arrays.stream(text.split(";")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
