package dev.bobbin.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import dev.bobbin.persistence.testing.TestJournals;
import java.nio.file.Path;
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
}
