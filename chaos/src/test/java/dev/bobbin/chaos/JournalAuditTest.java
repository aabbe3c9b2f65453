package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The journal checks and outages on a real PostgreSQL, with the journal's tables as the fenced journal has them. */
class JournalAuditTest {
  private static final String PRE_FENCING = "CREATE TABLE event_journal (ordering BIGSERIAL, persistence_id VARCHAR(255),"
      + " sequence_number BIGINT, writer VARCHAR(255) NOT NULL, PRIMARY KEY (persistence_id, sequence_number))";
  private static final String FENCED_JOURNAL = "CREATE TABLE event_journal (ordering BIGSERIAL,"
      + " persistence_id VARCHAR(255), sequence_number BIGINT, writer VARCHAR(255) NOT NULL, written_at BIGINT,"
      + " PRIMARY KEY (persistence_id, sequence_number));"
      + " CREATE TABLE journal_fenced_member (member VARCHAR(255) PRIMARY KEY, fenced_at BIGINT NOT NULL,"
      + " fenced_by VARCHAR(255))";

  private static EmbeddedPostgres pg;

  @BeforeAll
  static void start() {
    pg = EmbeddedPostgres.start();
  }

  @AfterAll
  static void stop() {
    pg.close();
  }

  @Test
  void aJournalWithoutFencingIsReportedNotChecked() throws SQLException {
    EmbeddedPostgres.Database db = pg.createDatabase();
    try (Connection c = connect(db)) {
      execute(c, PRE_FENCING);
      JournalAudit.Outcome outcome = JournalAudit.check(c);
      assertThat(outcome.notChecked()).contains("journal has no fencing columns");
      assertThat(outcome.violations()).isEmpty();
    }
  }

  @Test
  void eventsWrittenByAFencedIncarnationAfterItsFencingAreCounted() throws SQLException {
    EmbeddedPostgres.Database db = pg.createDatabase();
    try (Connection c = connect(db)) {
      execute(c, FENCED_JOURNAL);
      execute(c, "INSERT INTO journal_fenced_member VALUES ('bobbin@10.77.3.11:2551#-4711', 10000, 'bobbin@10.77.3.12:2551#5'),"
          + " ('bobbin@10.77.3.13:2551#9', 20000, NULL)");
      execute(c, "INSERT INTO event_journal (persistence_id, sequence_number, writer, written_at) VALUES"
          // Before its fencing: allowed. After: two stale writes. Its next incarnation and the others: allowed.
          + " ('App|a', 1, 'bobbin@10.77.3.11:2551#-4711', 9000),"
          + " ('App|a', 2, 'bobbin@10.77.3.11:2551#-4711', 10500),"
          + " ('App|b', 1, 'bobbin@10.77.3.11:2551#-4711', 26000),"
          + " ('App|b', 2, 'bobbin@10.77.3.11:2551#77', 30000),"
          + " ('App|c', 1, 'bobbin@10.77.3.12:2551#5', 30000)");
      JournalAudit.Outcome outcome = JournalAudit.check(c);
      assertThat(outcome.notChecked()).isEmpty();
      assertThat(outcome.writesAfterFencing()).isEqualTo(2);
      assertThat(outcome.violations()).singleElement().satisfies(v -> {
        assertThat(v.kind()).isEqualTo(Violation.Kind.STALE_WRITE);
        assertThat(v.detail()).isEqualTo("2 event(s) written by bobbin@10.77.3.11:2551#-4711 after it was fenced by"
            + " bobbin@10.77.3.12:2551#5, the last 16.0s after");
      });

      Member rm1 = new Member(1, "10.77.3.11", 8088, 2551, Path.of("rm-1"), Path.of("rm-1.log"));
      Member rm2 = new Member(2, "10.77.3.12", 8088, 2551, Path.of("rm-2"), Path.of("rm-2.log"));
      List<String> gaps = outcome.fencingGaps(List.of(new FaultInjector.Downing(rm1, 8500),
          new FaultInjector.Downing(rm2, 40000)));
      assertThat(gaps.get(0)).endsWith("bobbin@10.77.3.11:2551#-4711 fenced +1.5s relative to that");
      assertThat(gaps.get(1)).endsWith("no incarnation of bobbin@10.77.3.12:2551#* fenced");
    }
  }

  @Test
  void aStoppedJournalComesBackWithItsDataOnItsPort() throws SQLException {
    EmbeddedPostgres.Database db = pg.createDatabase();
    try (Connection c = connect(db)) {
      execute(c, "CREATE TABLE kept (n INT); INSERT INTO kept VALUES (41)");
    }
    JournalControl journal = new JournalControl(pg);
    journal.stop();
    assertThatThrownBy(() -> connect(db).close()).isInstanceOf(SQLException.class);
    journal.start();
    try (Connection c = connect(db); Statement st = c.createStatement(); var rs = st.executeQuery("SELECT n FROM kept")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(41);
    }
  }

  @Test
  void aFrozenJournalAnswersNothingUntilThawed() throws SQLException {
    EmbeddedPostgres.Database db = pg.createDatabase();
    JournalControl journal = new JournalControl(pg);
    assertThat(journal.freeze()).isTrue();
    try {
      assertThatThrownBy(() -> DriverManager.getConnection(db.jdbcUrl() + "?connectTimeout=2&loginTimeout=2",
          db.user(), db.password()).close()).isInstanceOf(SQLException.class);
    } finally {
      journal.thaw();
    }
    try (Connection c = connect(db)) {
      assertThat(c.isValid(5)).isTrue();
    }
  }

  private static Connection connect(EmbeddedPostgres.Database db) throws SQLException {
    return DriverManager.getConnection(db.jdbcUrl() + "?connectTimeout=5", db.user(), db.password());
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
