package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.NotUsed;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.jdbc.PekkoSerialization$;
import org.apache.pekko.persistence.jdbc.config.ReadJournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables;
import org.apache.pekko.persistence.jdbc.query.dao.DefaultReadJournalDao;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.scaladsl.Source;
import scala.Option;
import scala.Tuple2;
import scala.Tuple3;
import scala.collection.immutable.Set;
import scala.concurrent.ExecutionContext;
import scala.concurrent.ExecutionContextExecutor;
import scala.util.Success;
import scala.util.Try;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;

/**
 * pekko-persistence-jdbc's read journal with one query replaced: the eventsByTag poll.
 *
 * <p>Its own query joins the journal, wrapped in a derived table, to the tag table and bounds the
 * ordering only on the journal's side. H2 plans that by scanning the whole tag table and running
 * the derived table once per tag row, so every poll (ten a second per read model) cost time in
 * proportion to all events ever written: at 35,000 events it was the largest single cost of a
 * submission. This query bounds the tag table's own {@code event_id}, the first column of its
 * primary key, so a poll reads only the events written since the last one, on H2 and PostgreSQL.
 */
public final class TagRangeReadJournalDao extends DefaultReadJournalDao {
  private static final String EVENTS_BY_TAG = "SELECT j.\"ordering\", j.\"deleted\", j.\"persistence_id\", "
      + "j.\"sequence_number\", j.\"writer\", j.\"write_timestamp\", j.\"adapter_manifest\", j.\"event_payload\", "
      + "j.\"event_ser_id\", j.\"event_ser_manifest\", j.\"meta_payload\", j.\"meta_ser_id\", j.\"meta_ser_manifest\" "
      + "FROM \"event_tag\" t JOIN \"event_journal\" j ON j.\"ordering\" = t.\"event_id\" "
      + "WHERE t.\"event_id\" > ? AND t.\"event_id\" <= ? AND t.\"tag\" = ? AND j.\"deleted\" = FALSE "
      + "ORDER BY t.\"event_id\" LIMIT ?";

  private final JdbcBackend.JdbcDatabaseDef db;
  private final Serialization serialization;
  private final ExecutionContextExecutor blocking;

  public TagRangeReadJournalDao(JdbcBackend.JdbcDatabaseDef db, JdbcProfile profile, ReadJournalConfig config,
      Serialization serialization, ExecutionContext ec, Materializer mat) {
    super(db, profile, config, serialization, ec, mat);
    this.db = db;
    this.serialization = serialization;
    this.blocking = mat.system().dispatchers().lookup("pekko.actor.default-blocking-io-dispatcher");
  }

  @Override
  public Source<Try<Tuple3<PersistentRepr, Set<String>, Object>>, NotUsed> eventsByTag(
      String tag, long offset, long maxOffset, long max) {
    return org.apache.pekko.stream.javadsl.Source
        .lazyCompletionStage(() -> CompletableFuture.supplyAsync(() -> query(tag, offset, maxOffset, max), blocking))
        .mapConcat(rows -> rows)
        .mapMaterializedValue(m -> NotUsed.getInstance())
        .asScala();
  }

  private List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> query(String tag, long offset, long maxOffset,
      long max) {
    try (Connection conn = db.source().createConnection();
         PreparedStatement st = conn.prepareStatement(EVENTS_BY_TAG)) {
      st.setLong(1, offset);
      st.setLong(2, maxOffset);
      st.setString(3, tag);
      st.setLong(4, max);
      List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> out = new ArrayList<>();
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) out.add(withoutTags(PekkoSerialization$.MODULE$.fromRow(serialization, row(rs))));
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("eventsByTag(" + tag + ") failed: " + e.getMessage(), e);
    }
  }

  private static JournalTables.JournalPekkoSerializationRow row(ResultSet rs) throws SQLException {
    int metaSerId = rs.getInt(12);
    Option<Object> metaSerIdOption = rs.wasNull() ? Option.empty() : Option.apply(metaSerId);
    return new JournalTables.JournalPekkoSerializationRow(rs.getLong(1), rs.getBoolean(2), rs.getString(3),
        rs.getLong(4), rs.getString(5), rs.getLong(6), rs.getString(7), rs.getBytes(8), rs.getInt(9),
        rs.getString(10), Option.apply(rs.getBytes(11)), metaSerIdOption, Option.apply(rs.getString(13)));
  }

  /** As the default query: the read journal does not need each event's tags. */
  @SuppressWarnings("unchecked")
  private static Try<Tuple3<PersistentRepr, Set<String>, Object>> withoutTags(Try<Tuple2<PersistentRepr, Object>> t) {
    if (t.isFailure()) return (Try<Tuple3<PersistentRepr, Set<String>, Object>>) (Try<?>) t;
    Tuple2<PersistentRepr, Object> v = t.get();
    return new Success<>(new Tuple3<>(v._1(), scala.collection.immutable.Set$.MODULE$.<String>empty(), v._2()));
  }
}
