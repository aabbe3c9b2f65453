package dev.bobbin.persistence;

import com.typesafe.config.Config;
import dev.bobbin.pg.EmbeddedPostgres;
import dev.bobbin.persistence.testing.TestJournals;
import org.junit.jupiter.api.BeforeEach;

/** The same contract on a real PostgreSQL server, one fresh database per test. */
class PostgresJournalTest extends JournalContract {
  private Config config;

  @BeforeEach
  void freshDatabase() {
    config = TestJournals.postgres(EmbeddedPostgres.shared().createDatabase());
  }

  @Override
  Config config() {
    return config;
  }
}
