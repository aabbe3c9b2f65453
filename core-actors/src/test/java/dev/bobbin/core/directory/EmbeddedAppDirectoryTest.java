package dev.bobbin.core.directory;

import com.typesafe.config.Config;
import dev.bobbin.persistence.testing.TestJournals;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedAppDirectoryTest extends AppDirectoryContract {
  @TempDir Path dataDir;

  @Override
  Config config() {
    return TestJournals.embedded(dataDir);
  }
}
