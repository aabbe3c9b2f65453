package dev.bobbin.persistence.fence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.persistence.JournalSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the lease table guarantees on every journal database; subclasses supply the database. */
abstract class LeaseTableContract {
  static final String A = "bobbin@10.0.0.1:2551#1";
  static final String B = "bobbin@10.0.0.2:2551#2";
  static final long TTL = 60_000;

  Connection conn;

  abstract Connection open() throws SQLException;

  @BeforeEach
  void schema() throws SQLException {
    conn = open();
    JournalSchema.create(conn);
  }

  @AfterEach
  void close() throws SQLException {
    conn.close();
  }

  @Test
  void aLeaseHeldByOneMemberIsRefusedToAnotherUntilItExpires() throws SQLException {
    assertThat(LeaseTable.acquire(conn, "shard-1", A, TTL)).isEqualTo(OptionalLong.of(1));
    assertThat(LeaseTable.acquire(conn, "shard-1", B, TTL)).isEmpty();
    // Its owner may take it again; the counter still moves, as for every taking.
    assertThat(LeaseTable.acquire(conn, "shard-1", A, TTL)).isEqualTo(OptionalLong.of(2));

    assertThat(LeaseTable.acquire(conn, "shard-2", A, -1_000)).isPresent(); // expired a second ago
    assertThat(LeaseTable.acquire(conn, "shard-2", B, TTL)).isEqualTo(OptionalLong.of(2));
    assertThat(LeaseTable.renew(conn, A, TTL)).containsOnlyKeys("shard-1");
  }

  @Test
  void renewingKeepsAnExpiredLeaseNoOneTookAndReportsOnlyWhatIsStillHeld() throws SQLException {
    LeaseTable.acquire(conn, "shard-1", A, -1_000);
    LeaseTable.acquire(conn, "shard-2", A, TTL);
    assertThat(LeaseTable.live(conn, A, List.of("shard-1", "shard-2"))).containsOnlyKeys("shard-2");

    assertThat(LeaseTable.renew(conn, A, TTL)).isEqualTo(Map.of("shard-1", 1L, "shard-2", 1L));
    assertThat(LeaseTable.live(conn, A, List.of("shard-1", "shard-2"))).containsOnlyKeys("shard-1", "shard-2");
    assertThat(LeaseTable.live(conn, B, List.of("shard-1", "shard-2"))).isEmpty();
  }

  @Test
  void aFencedMemberLosesEveryLeaseAtOnceAndCanNeverTakeOneAgain() throws SQLException {
    LeaseTable.acquire(conn, "shard-1", A, TTL);
    LeaseTable.acquire(conn, "singleton", A, TTL);

    assertThat(LeaseTable.fence(conn, A, B)).isEqualTo(2);

    assertThat(LeaseTable.live(conn, A, List.of("shard-1", "singleton"))).isEmpty();
    assertThat(LeaseTable.renew(conn, A, TTL)).isEmpty();
    assertThat(LeaseTable.acquire(conn, "shard-1", A, TTL)).isEmpty();
    assertThat(LeaseTable.acquire(conn, "shard-3", A, TTL)).isEmpty();
    // The survivors need not wait for the time to live: the counter moved past the fenced owner's.
    assertThat(LeaseTable.acquire(conn, "shard-1", B, TTL)).isEqualTo(OptionalLong.of(3));
    assertThat(LeaseTable.fenced(conn, A)).isTrue();
    assertThat(LeaseTable.fenced(conn, B)).isFalse();
    // A second survivor fencing the same member changes nothing.
    assertThat(LeaseTable.fence(conn, A, "bobbin@10.0.0.3:2551#3")).isZero();
    assertThat(LeaseTable.live(conn, B, List.of("shard-1"))).containsEntry("shard-1", 3L);
  }

  @Test
  void releasingGivesTheLeaseUpOnlyUnderTheCounterItWasTakenWith() throws SQLException {
    long first = LeaseTable.acquire(conn, "shard-1", A, TTL).getAsLong();
    long second = LeaseTable.acquire(conn, "shard-1", A, TTL).getAsLong();

    assertThat(LeaseTable.release(conn, "shard-1", A, first)).isFalse();
    assertThat(LeaseTable.live(conn, A, List.of("shard-1"))).containsEntry("shard-1", second);
    assertThat(LeaseTable.release(conn, "shard-1", A, second)).isTrue();
    assertThat(LeaseTable.acquire(conn, "shard-1", B, TTL)).isEqualTo(OptionalLong.of(second + 1));
  }

  @Test
  void earlierIncarnationsOnTheSameAddressAreFoundByTheirPrefix() throws SQLException {
    LeaseTable.acquire(conn, "shard-1", "bobbin@10.0.0.1:2551#7", TTL);
    LeaseTable.acquire(conn, "shard-2", "bobbin@10.0.0.1:25510#8", TTL);
    LeaseTable.acquire(conn, "shard-3", A, TTL);

    assertThat(LeaseTable.ownersLike(conn, "bobbin@10.0.0.1:2551#", A)).containsOnly("bobbin@10.0.0.1:2551#7");
  }

  @Test
  void eventsGetTheDatabaseClockAsTheirWriteTime() throws SQLException {
    try (var insert = conn.prepareStatement("INSERT INTO \"event_journal\" (\"persistence_id\", \"sequence_number\","
        + " \"deleted\", \"writer\", \"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\","
        + " \"event_ser_manifest\") VALUES ('Ledger|x', 1, FALSE, 'w', 0, '', ?, 1, '')")) {
      insert.setBytes(1, new byte[] {0});
      insert.executeUpdate();
    }
    try (Statement st = conn.createStatement();
        var rs = st.executeQuery("SELECT \"written_at\" FROM \"event_journal\" WHERE \"persistence_id\" = 'Ledger|x'")) {
      rs.next();
      assertThat(rs.getLong(1)).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
    }
    // Ensuring the schema again leaves the column as it is.
    JournalSchema.create(conn);
  }
}
