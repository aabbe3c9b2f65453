package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.persistence.jdbc.db.SlickExtension;
import org.apache.pekko.persistence.jdbc.db.SlickExtensionImpl;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;

/**
 * Folds every event of one entity type, entity by entity in sequence order, with one streaming
 * query on the journal table. It sees every acknowledged write, which a query by tag does not
 * (the read journal only emits orderings its sequence tracker has caught up with), and costs one
 * round trip instead of one per entity as {@code currentEventsByPersistenceId} would.
 */
public final class JournalScan {
  private static final String QUERY = "SELECT \"persistence_id\", \"event_payload\", \"event_ser_id\", "
      + "\"event_ser_manifest\" FROM \"event_journal\" WHERE \"persistence_id\" LIKE ? AND \"deleted\" = FALSE "
      + "ORDER BY \"persistence_id\", \"sequence_number\"";

  private JournalScan() {}

  /**
   * @param entityType the entity type key's name; persistence ids are {@code type|entityId}
   * @return each entity's id and the state its events fold to
   */
  public static <S> CompletionStage<Map<String, S>> fold(ActorSystem<?> system, String entityType,
      Function<String, S> empty, BiFunction<S, Object, S> apply) {
    var db = ((SlickExtensionImpl) SlickExtension.get(system))
        .database(system.settings().config().getConfig("jdbc-journal"));
    Serialization serialization = SerializationExtension.get(system);
    String prefix = entityType + "|";
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = db.database().source().createConnection()) {
        // PostgreSQL streams rows with a cursor only inside a transaction.
        conn.setAutoCommit(false);
        try (PreparedStatement st = conn.prepareStatement(QUERY)) {
          st.setFetchSize(1000);
          st.setString(1, prefix.replace("_", "\\_").replace("%", "\\%") + "%");
          Map<String, S> states = new HashMap<>();
          try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
              String id = rs.getString(1).substring(prefix.length());
              Object event = serialization.deserialize(rs.getBytes(2), rs.getInt(3), rs.getString(4)).get();
              states.put(id, apply.apply(states.computeIfAbsent(id, empty), event));
            }
          }
          return states;
        } finally {
          conn.rollback();
          conn.setAutoCommit(true);
        }
      } catch (SQLException e) {
        throw new IllegalStateException("could not read the " + entityType + " events: " + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }
}
