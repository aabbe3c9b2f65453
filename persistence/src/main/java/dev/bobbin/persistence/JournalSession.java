package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.japi.function.Function;
import org.apache.pekko.projection.jdbc.JdbcSession;

/**
 * One transaction on the journal's database, for a pekko-projection-jdbc projection: the
 * projection's offset and what its handler writes commit together. The connection comes from the
 * journal plugin's pool ({@link JournalDatabase}) and goes back to it on {@link #close()}.
 */
public final class JournalSession implements JdbcSession {
  private final Connection connection;

  public JournalSession(ActorSystem<?> system) {
    try {
      this.connection = JournalDatabase.source(system).createConnection();
      connection.setAutoCommit(false);
    } catch (SQLException e) {
      throw new IllegalStateException("no connection to the journal database: " + e.getMessage(), e);
    }
  }

  @Override
  public <R> R withConnection(Function<Connection, R> func) throws Exception {
    return func.apply(connection);
  }

  @Override
  public void commit() throws SQLException {
    connection.commit();
  }

  @Override
  public void rollback() throws SQLException {
    connection.rollback();
  }

  @Override
  public void close() throws SQLException {
    try {
      connection.setAutoCommit(true);
    } finally {
      connection.close();
    }
  }
}
