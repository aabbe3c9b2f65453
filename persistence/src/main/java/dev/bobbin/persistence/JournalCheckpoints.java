package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;

/**
 * Named checkpoints of what a reader folded from the journal: the state as of every event up to an
 * ordering, in parts (each serialized on its own, so that no single payload holds everything).
 * A reader starts from the latest one and scans only the events after its ordering. Only the
 * latest checkpoint of a name is kept; a new one replaces it in the same transaction.
 */
public final class JournalCheckpoints {
  private static final String LATEST = "SELECT \"ordering\", \"ser_id\", \"ser_manifest\", \"payload\" "
      + "FROM \"journal_checkpoint\" WHERE \"name\" = ? AND \"ordering\" = "
      + "(SELECT MAX(\"ordering\") FROM \"journal_checkpoint\" WHERE \"name\" = ?) ORDER BY \"part\"";
  private static final String INSERT = "INSERT INTO \"journal_checkpoint\" (\"name\", \"ordering\", \"part\", "
      + "\"created\", \"ser_id\", \"ser_manifest\", \"payload\") VALUES (?, ?, ?, ?, ?, ?, ?)";
  private static final String DELETE_OLDER = "DELETE FROM \"journal_checkpoint\" WHERE \"name\" = ? AND \"ordering\" < ?";

  private JournalCheckpoints() {}

  /** A checkpoint: the parts folded from every event up to {@code ordering}. */
  public record Checkpoint(long ordering, List<Object> parts) {}

  /** The latest checkpoint of {@code name}, if there is one. */
  public static CompletionStage<Optional<Checkpoint>> latest(ActorSystem<?> system, String name) {
    Serialization serialization = SerializationExtension.get(system);
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = JournalDatabase.source(system).createConnection();
          PreparedStatement st = conn.prepareStatement(LATEST)) {
        st.setString(1, name);
        st.setString(2, name);
        long ordering = -1;
        List<Object> parts = new ArrayList<>();
        try (ResultSet rs = st.executeQuery()) {
          while (rs.next()) {
            ordering = rs.getLong(1);
            parts.add(serialization.deserialize(rs.getBytes(4), rs.getInt(2), rs.getString(3)).get());
          }
        }
        return ordering < 0 ? Optional.<Checkpoint>empty() : Optional.of(new Checkpoint(ordering, parts));
      } catch (SQLException e) {
        throw new IllegalStateException("could not read checkpoint " + name + ": " + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  /**
   * Writes a checkpoint of {@code name} at {@code ordering} and drops the older ones, in one
   * transaction. A second writer of the same checkpoint fails on the key and changes nothing.
   */
  public static CompletionStage<Void> write(ActorSystem<?> system, String name, long ordering,
      List<? extends Object> parts) {
    Serialization serialization = SerializationExtension.get(system);
    return CompletableFuture.runAsync(() -> {
      try (Connection conn = JournalDatabase.source(system).createConnection()) {
        conn.setAutoCommit(false);
        try (PreparedStatement insert = conn.prepareStatement(INSERT);
            PreparedStatement delete = conn.prepareStatement(DELETE_OLDER)) {
          long now = System.currentTimeMillis();
          for (int i = 0; i < parts.size(); i++) {
            Object part = parts.get(i);
            Serializer serializer = serialization.findSerializerFor(part);
            insert.setString(1, name);
            insert.setLong(2, ordering);
            insert.setInt(3, i);
            insert.setLong(4, now);
            insert.setInt(5, serializer.identifier());
            insert.setString(6, Serializers.manifestFor(serializer, part));
            insert.setBytes(7, serializer.toBinary(part));
            insert.executeUpdate();
          }
          delete.setString(1, name);
          delete.setLong(2, ordering);
          delete.executeUpdate();
          conn.commit();
        } catch (SQLException | RuntimeException e) {
          conn.rollback();
          throw e;
        } finally {
          conn.setAutoCommit(true);
        }
      } catch (SQLException e) {
        throw new IllegalStateException("could not write checkpoint " + name + " at ordering " + ordering + ": "
            + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }
}
