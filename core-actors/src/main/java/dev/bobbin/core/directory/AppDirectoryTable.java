package dev.bobbin.core.directory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;

/**
 * The application list's tables in the journal's database ({@code app_directory} and
 * {@code app_directory_count}, created with the journal's schema): what the projection writes and
 * what every member reads. The same SQL serves H2 and PostgreSQL.
 */
final class AppDirectoryTable {
  private static final String LIST = "SELECT \"report\" FROM \"app_directory\" ORDER BY \"app_id\"";
  private static final String COUNTS = "SELECT \"state\", \"apps\" FROM \"app_directory_count\"";
  private static final String INSERT = "INSERT INTO \"app_directory\" (\"state\", \"ended\", \"report\", "
      + "\"entity_ser_id\", \"entity_ser_manifest\", \"entity_payload\", \"app_id\") VALUES (?, ?, ?, ?, ?, ?, ?)";
  private static final String UPDATE = "UPDATE \"app_directory\" SET \"state\" = ?, \"ended\" = ?, \"report\" = ?, "
      + "\"entity_ser_id\" = ?, \"entity_ser_manifest\" = ?, \"entity_payload\" = ? WHERE \"app_id\" = ?";
  private static final String ADD_COUNT = "UPDATE \"app_directory_count\" SET \"apps\" = \"apps\" + ? WHERE \"state\" = ?";
  private static final String INSERT_COUNT = "INSERT INTO \"app_directory_count\" (\"apps\", \"state\") VALUES (?, ?)";
  private static final String COUNT_ENDED = "SELECT COUNT(*) FROM \"app_directory\" WHERE \"ended\" IS NOT NULL";
  private static final String OLDEST_ENDED = "SELECT \"app_id\" FROM \"app_directory\" WHERE \"ended\" <= "
      + "(SELECT \"ended\" FROM \"app_directory\" WHERE \"ended\" IS NOT NULL ORDER BY \"ended\" LIMIT 1 OFFSET ?)";
  private static final String DROP = "DELETE FROM \"app_directory\" WHERE \"app_id\" = ?";

  /** An application as listed: the entity's state, and the ordering of the event that ended it. */
  record Listed(ApplicationEntity.State entity, Long ended) {}

  private final Serialization serialization;
  private final ObjectMapper json;

  AppDirectoryTable(Serialization serialization, ObjectMapper json) {
    this.serialization = serialization;
    this.json = json;
  }

  /** Every listed application's report, by id. */
  List<AppReport> list(Connection conn) throws SQLException {
    List<AppReport> out = new ArrayList<>();
    try (PreparedStatement st = conn.prepareStatement(LIST); ResultSet rs = st.executeQuery()) {
      while (rs.next()) out.add(fromJson(rs.getString(1)));
    }
    return out;
  }

  AppCounts counts(Connection conn) throws SQLException {
    Map<AppState, Long> counts = new EnumMap<>(AppState.class);
    try (PreparedStatement st = conn.prepareStatement(COUNTS); ResultSet rs = st.executeQuery()) {
      while (rs.next()) counts.put(AppState.valueOf(rs.getString(1)), rs.getLong(2));
    }
    return new AppCounts(counts);
  }

  /** The listed ones among {@code appIds}. */
  Map<String, Listed> load(Connection conn, Collection<String> appIds) throws SQLException {
    Map<String, Listed> out = new HashMap<>();
    if (appIds.isEmpty()) return out;
    String sql = "SELECT \"app_id\", \"ended\", \"entity_ser_id\", \"entity_ser_manifest\", \"entity_payload\" "
        + "FROM \"app_directory\" WHERE \"app_id\" IN (" + String.join(", ", Collections.nCopies(appIds.size(), "?"))
        + ")";
    try (PreparedStatement st = conn.prepareStatement(sql)) {
      int i = 1;
      for (String id : appIds) st.setString(i++, id);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          long ended = rs.getLong(2);
          Long endedOrNull = rs.wasNull() ? null : ended;
          var entity = (ApplicationEntity.State) serialization.deserialize(rs.getBytes(5), rs.getInt(3),
              rs.getString(4)).get();
          out.put(rs.getString(1), new Listed(entity, endedOrNull));
        }
      }
    }
    return out;
  }

  /** Writes the applications, inserting those that {@code existing} does not hold. */
  void write(Connection conn, Map<String, Listed> apps, Collection<String> existing) throws SQLException {
    try (PreparedStatement insert = conn.prepareStatement(INSERT);
        PreparedStatement update = conn.prepareStatement(UPDATE)) {
      for (Map.Entry<String, Listed> e : apps.entrySet()) {
        PreparedStatement st = existing.contains(e.getKey()) ? update : insert;
        bind(st, e.getKey(), e.getValue());
        st.addBatch();
      }
      insert.executeBatch();
      update.executeBatch();
    }
  }

  private void bind(PreparedStatement st, String appId, Listed app) throws SQLException {
    ApplicationEntity.State entity = app.entity();
    Serializer serializer = serialization.findSerializerFor(entity);
    st.setString(1, entity.state().name());
    if (app.ended() == null) st.setNull(2, Types.BIGINT);
    else st.setLong(2, app.ended());
    st.setString(3, toJson(entity.report()));
    st.setInt(4, serializer.identifier());
    st.setString(5, Serializers.manifestFor(serializer, entity));
    st.setBytes(6, serializer.toBinary(entity));
    st.setString(7, appId);
  }

  void addCounts(Connection conn, Map<AppState, Long> deltas) throws SQLException {
    try (PreparedStatement add = conn.prepareStatement(ADD_COUNT)) {
      for (Map.Entry<AppState, Long> d : deltas.entrySet()) {
        if (d.getValue() == 0) continue;
        add.setLong(1, d.getValue());
        add.setString(2, d.getKey().name());
        if (add.executeUpdate() == 0) {
          try (PreparedStatement insert = conn.prepareStatement(INSERT_COUNT)) {
            insert.setLong(1, d.getValue());
            insert.setString(2, d.getKey().name());
            insert.executeUpdate();
          }
        }
      }
    }
  }

  /**
   * Drops the ended applications beyond the {@code keep} most recently ended, oldest first.
   *
   * @return the ids of those dropped
   */
  List<String> dropEndedBeyond(Connection conn, int keep) throws SQLException {
    long ended;
    try (PreparedStatement st = conn.prepareStatement(COUNT_ENDED); ResultSet rs = st.executeQuery()) {
      rs.next();
      ended = rs.getLong(1);
    }
    if (ended <= keep) return List.of();
    List<String> dropped = new ArrayList<>();
    try (PreparedStatement st = conn.prepareStatement(OLDEST_ENDED)) {
      // The newest of those to drop: orderings are unique, one per event.
      st.setLong(1, ended - keep - 1);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) dropped.add(rs.getString(1));
      }
    }
    try (PreparedStatement st = conn.prepareStatement(DROP)) {
      for (String id : dropped) {
        st.setString(1, id);
        st.addBatch();
      }
      st.executeBatch();
    }
    return dropped;
  }

  private String toJson(AppReport report) {
    try {
      return json.writeValueAsString(report);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the report of " + report.id() + " as JSON", e);
    }
  }

  private AppReport fromJson(String report) {
    try {
      return json.readValue(report, AppReport.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot read a listed application report: " + e.getMessage(), e);
    }
  }
}
