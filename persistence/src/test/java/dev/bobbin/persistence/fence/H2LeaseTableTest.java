package dev.bobbin.persistence.fence;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.io.TempDir;

/** The lease table on the embedded journal's H2. */
class H2LeaseTableTest extends LeaseTableContract {
  @TempDir
  Path dir;

  @Override
  Connection open() throws SQLException {
    return DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("journal") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "");
  }
}
