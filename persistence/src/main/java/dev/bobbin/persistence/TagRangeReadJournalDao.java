package dev.bobbin.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
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
 * the derived table once per tag row, so every poll (ten a second per read model) costs time in
 * proportion to all events ever written: at 35,000 events, the largest single cost of a
 * submission. A single join with the bound on the tag table's side fares no better: H2 then scans
 * the whole journal. Here each poll is two single-table queries whose plans do not depend
 * on the optimizer's guesses: the tagged ids in the range from the tag table's primary key, then
 * those rows from the journal by its ordering index.
 */
public final class TagRangeReadJournalDao extends DefaultReadJournalDao {
  private static final String TAGGED_IDS = "SELECT \"event_id\" FROM \"event_tag\" "
      + "WHERE \"tag\" = ? AND \"event_id\" > ? AND \"event_id\" <= ? ORDER BY \"event_id\" LIMIT ?";
  private static final String ROWS = "SELECT \"ordering\", \"deleted\", \"persistence_id\", \"sequence_number\", "
      + "\"writer\", \"write_timestamp\", \"adapter_manifest\", \"event_payload\", \"event_ser_id\", "
      + "\"event_ser_manifest\", \"meta_payload\", \"meta_ser_id\", \"meta_ser_manifest\" FROM \"event_journal\" "
      + "WHERE \"deleted\" = FALSE AND \"ordering\" IN (%s) ORDER BY \"ordering\"";

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

  /**
   * Up to {@code max} events, as the default query returns them: the read journal takes fewer
   * than {@code max} to mean the range holds no more, so ids whose events were deleted are made up
   * for by reading further.
   */
  private List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> query(String tag, long offset, long maxOffset,
      long max) {
    try (Connection conn = db.source().createConnection()) {
      List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> out = new ArrayList<>();
      long from = offset;
      while (out.size() < max) {
        long wanted = max - out.size();
        List<Long> ids = taggedIds(conn, tag, from, maxOffset, wanted);
        if (!ids.isEmpty()) out.addAll(rows(conn, ids));
        if (ids.size() < wanted) break;
        from = ids.get(ids.size() - 1);
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException("eventsByTag(" + tag + ") failed: " + e.getMessage(), e);
    }
  }

  private static List<Long> taggedIds(Connection conn, String tag, long from, long to, long limit)
      throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement st = conn.prepareStatement(TAGGED_IDS)) {
      st.setString(1, tag);
      st.setLong(2, from);
      st.setLong(3, to);
      st.setLong(4, limit);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> rows(Connection conn, List<Long> ids)
      throws SQLException {
    List<Try<Tuple3<PersistentRepr, Set<String>, Object>>> out = new ArrayList<>(ids.size());
    String in = String.join(",", Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement st = conn.prepareStatement(String.format(ROWS, in))) {
      for (int i = 0; i < ids.size(); i++) st.setLong(i + 1, ids.get(i));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) out.add(withoutTags(PekkoSerialization$.MODULE$.fromRow(serialization, row(rs))));
      }
    }
    return out;
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
