package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import dev.bobbin.persistence.testing.TestJournals;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedJournalTest extends JournalContract {
  @TempDir Path dataDir;

  @Override
  Config config() {
    return TestJournals.embedded(dataDir);
  }

  @Test
  void theDatabaseIsCreatedUnderTheDataDirectory() {
    startSystem();
    assertThat(dataDir.resolve("journal/bobbin.mv.db")).isRegularFile();
  }

  @Test
  void anEventOfSeveralMegabytesIsStoredAndRecovered() {
    String big = "x".repeat(3_000_000);
    ActorTestKit first = startSystem();
    add(first, spawn(first, "big", first.createTestProbe()), big, FIRST);
    stopSystem(first);

    ActorTestKit second = startSystem();
    assertThat(get(second, spawn(second, "big", second.createTestProbe()), FIRST).items()).containsExactly(big);
  }

  @Test
  void aJournalCreatedByAnEarlierVersionIsMendedAndKeepsItsEvents() throws Exception {
    try (Connection conn = connect(); Statement st = conn.createStatement()) {
      // The journal table as pekko-persistence-jdbc's script and earlier Bobbin versions made it.
      st.execute("""
          CREATE TABLE "event_journal" ("ordering" BIGINT UNIQUE NOT NULL AUTO_INCREMENT,
            "deleted" BOOLEAN DEFAULT false NOT NULL, "persistence_id" VARCHAR(255) NOT NULL,
            "sequence_number" BIGINT NOT NULL, "writer" VARCHAR NOT NULL,
            "write_timestamp" BIGINT NOT NULL, "adapter_manifest" VARCHAR NOT NULL,
            "event_payload" BLOB NOT NULL, "event_ser_id" INTEGER NOT NULL,
            "event_ser_manifest" VARCHAR NOT NULL, "meta_payload" BLOB, "meta_ser_id" INTEGER,
            "meta_ser_manifest" VARCHAR, PRIMARY KEY ("persistence_id", "sequence_number"))""");
      st.execute("CREATE UNIQUE INDEX \"event_journal_ordering_idx\" ON \"event_journal\" (\"ordering\")");
      st.execute("""
          CREATE TABLE "event_tag" ("event_id" BIGINT NOT NULL, "tag" VARCHAR NOT NULL,
            PRIMARY KEY ("event_id", "tag"), CONSTRAINT "fk_event_journal" FOREIGN KEY ("event_id")
            REFERENCES "event_journal" ("ordering") ON DELETE CASCADE)""");
    }
    ActorTestKit first = startSystem();
    // A tagged event: its tag row's foreign key still finds the ordering it refers to.
    add(first, spawn(first, "old", first.createTestProbe()), "x", FIRST);

    try (Connection conn = connect(); Statement st = conn.createStatement()) {
      assertThat(indexesOnOrdering(st)).hasSize(1);
      ResultSet cache = st.executeQuery("SELECT IDENTITY_CACHE FROM INFORMATION_SCHEMA.COLUMNS"
          + " WHERE TABLE_NAME = 'event_journal' AND COLUMN_NAME = 'ordering'");
      assertThat(cache.next()).isTrue();
      assertThat(cache.getLong(1)).isEqualTo(100_000L);
    }
    stopSystem(first);

    // Mending again on the next start keeps the orderings unique: writing on does not clash.
    ActorTestKit second = startSystem();
    var ledger = spawn(second, "old", second.createTestProbe());
    assertThat(add(second, ledger, "y", FIRST).items()).containsExactly("x", "y");
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(JournalConfig.h2Url(dataDir), "sa", "");
  }

  private static List<String> indexesOnOrdering(Statement st) throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet rs = st.executeQuery("SELECT INDEX_NAME FROM INFORMATION_SCHEMA.INDEX_COLUMNS"
        + " WHERE TABLE_NAME = 'event_journal' AND COLUMN_NAME = 'ordering'")) {
      while (rs.next()) names.add(rs.getString(1));
    }
    return names;
  }
}
