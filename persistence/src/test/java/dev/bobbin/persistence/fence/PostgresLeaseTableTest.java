package dev.bobbin.persistence.fence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.pg.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The lease table on PostgreSQL, where members on several hosts share it. */
class PostgresLeaseTableTest extends LeaseTableContract {
  private EmbeddedPostgres.Database db;

  @Override
  Connection open() throws SQLException {
    if (db == null) db = EmbeddedPostgres.shared().createDatabase();
    return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
  }

  @Test
  void aFenceWaitsForTheFencedMembersWriteInFlightAndIsRecordedAfterItsCommit() throws Exception {
    LeaseTable.acquire(conn, "shard-1", A, TTL);
    try (Connection writer = open(); Connection fencer = open()) {
      writer.setAutoCommit(false);
      assertThat(LeaseTable.live(writer, A, List.of("shard-1"))).containsKey("shard-1");
      long writtenAt = insertEvent(writer);

      CompletableFuture<Integer> fence = CompletableFuture.supplyAsync(() -> {
        try {
          return LeaseTable.fence(fencer, A, B);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      awaitLockWait(Duration.ofSeconds(20));
      assertThat(fence).isNotDone();

      writer.commit();
      assertThat(fence.get(20, TimeUnit.SECONDS)).isEqualTo(1);
      try (PreparedStatement st = conn.prepareStatement(
          "SELECT \"fenced_at\" FROM \"journal_fenced_member\" WHERE \"member\" = ?")) {
        st.setString(1, A);
        ResultSet rs = st.executeQuery();
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isGreaterThanOrEqualTo(writtenAt);
      }
      // The write that comes after the fence finds no lease.
      assertThat(LeaseTable.live(writer, A, List.of("shard-1"))).isEmpty();
      writer.rollback();
    }
  }

  private static long insertEvent(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("INSERT INTO event_journal (persistence_id, sequence_number, writer, write_timestamp,"
          + " adapter_manifest, event_payload, event_ser_id, event_ser_manifest)"
          + " VALUES ('Ledger|in-flight', 1, 'w', 0, '', '\\x00', 1, '')");
      ResultSet rs = st.executeQuery("SELECT written_at FROM event_journal WHERE persistence_id = 'Ledger|in-flight'");
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Until another session of this database waits for a row lock. */
  private void awaitLockWait(Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")) {
        rs.next();
        if (rs.getInt(1) > 0) return;
      }
      if (System.nanoTime() > deadline) throw new AssertionError("no session waited for a lock within " + within);
      Thread.onSpinWait();
    }
  }
}
