package dev.bobbin.core.directory;

import com.typesafe.config.Config;
import dev.bobbin.persistence.testing.TestJournals;
import org.junit.jupiter.api.BeforeEach;

/** The same contract on a real PostgreSQL server, one fresh database per test. */
class PostgresAppDirectoryTest extends AppDirectoryContract {
  private Config config;

  @BeforeEach
  void freshDatabase() {
    config = TestJournals.freshPostgres();
  }

  @Override
  Config config() {
    return config;
  }
}
