package dev.bobbin.persistence;

import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.jdbc.db.SlickExtension;
import org.apache.pekko.persistence.jdbc.db.SlickExtensionImpl;

/**
 * The journal's database as plain JDBC, for what pekko-persistence-jdbc has no query for: the
 * schema, the scheduler's scans and checkpoints. It is the journal plugin's own connection pool,
 * so these share its connections and its configuration (embedded H2 or PostgreSQL).
 */
public final class JournalDatabase {
  private JournalDatabase() {}

  public static slick.jdbc.JdbcDataSource source(ActorSystem<?> system) {
    return ((SlickExtensionImpl) SlickExtension.get(system))
        .database(system.settings().config().getConfig("jdbc-journal")).database().source();
  }
}
