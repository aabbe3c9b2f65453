package dev.bobbin.http.serving;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * One check that the journal's PostgreSQL database answers, on a connection of its own: the
 * journal's pool may be busy with writes, and a check that waited for it would take a saturated
 * member for a lost database. Blocking; not thread-safe: one check at a time.
 */
final class JournalPing implements AutoCloseable {
  /** Where {@code JournalConfig.overlay} puts the connection settings all journal plugins share. */
  private static final String DB = "pekko-persistence-jdbc.shared-databases.slick.db.";
  private final String url;
  private final Properties properties = new Properties();
  private final int seconds;
  private Connection connection;

  JournalPing(Config config, Duration timeout) {
    this.url = config.getString(DB + "url");
    this.seconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    properties.setProperty("user", config.getString(DB + "user"));
    properties.setProperty("password", config.getString(DB + "password"));
    // pgjdbc's own bounds, in seconds: a database that accepts no connection or answers nothing
    // ends the check instead of holding it for TCP's timeouts.
    properties.setProperty("connectTimeout", Integer.toString(seconds));
    properties.setProperty("loginTimeout", Integer.toString(seconds));
    properties.setProperty("socketTimeout", Integer.toString(seconds * 2));
  }

  /** Empty when the database answered; otherwise what went wrong. */
  Optional<String> check() {
    try {
      if (connection == null) connection = DriverManager.getConnection(url, properties);
      if (connection.isValid(seconds)) return Optional.empty();
      close();
      return Optional.of("the journal's database did not answer a check within " + seconds + " s");
    } catch (SQLException e) {
      close();
      return Optional.of("the journal's database is unreachable: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    if (connection == null) return;
    try {
      connection.close();
    } catch (SQLException e) {
      // The connection is broken already; a new one is opened for the next check.
    }
    connection = null;
  }
}
