package dev.bobbin.persistence.fence;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao;
import org.apache.pekko.persistence.jdbc.journal.dao.JournalTables.JournalPekkoSerializationRow;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.stream.Materializer;
import scala.Tuple2;
import scala.collection.immutable.Seq;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.FutureConverters;
import scala.runtime.BoxedUnit;
import slick.dbio.DBIOAction;
import slick.jdbc.JdbcBackend;
import slick.jdbc.JdbcProfile;
import slick.jdbc.SimpleJdbcAction;

/**
 * pekko-persistence-jdbc's journal DAO with fenced writes: each batch commits only in a
 * transaction that first finds every lease its entities need held by this member, unexpired and
 * under the fencing counter the member took it with ({@link WriteFence#verify}), and keeps those
 * lease rows locked until it commits. Each event's {@code writer} is the writing member's
 * incarnation, and {@code written_at} (the column's default) the database's clock, so the journal
 * itself shows who wrote what when.
 */
public final class FencedJournalDao extends DefaultJournalDao {
  private final WriteFence fence;

  public FencedJournalDao(JdbcBackend.JdbcDatabaseDef db, JdbcProfile profile, JournalConfig journalConfig,
      Serialization serialization, ExecutionContext ec, Materializer mat) {
    super(db, profile, journalConfig, serialization, ec, mat);
    this.fence = WriteFence.get(Adapter.toTyped(mat.system()));
  }

  @Override
  public Future<BoxedUnit> writeJournalRows(Seq<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> xs) {
    if (!fence.active()) return super.writeJournalRows(xs);
    Set<String> pids = new LinkedHashSet<>();
    xs.foreach(x -> pids.add(x._1().persistenceId()));
    Set<String> leases;
    try {
      leases = fence.leasesFor(pids);
    } catch (JournalWriteFenced e) {
      return scala.concurrent.Future$.MODULE$.failed(e);
    }
    Seq<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> rows = byThisMember(xs);
    // A lease the journal shows expired but still ours (renewals missed while the database was
    // away) is renewed once and the batch tried again; one taken by another member stays refused.
    CompletionStage<BoxedUnit> written = write(rows, leases).exceptionallyCompose(e -> {
      Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
      if (!(cause instanceof JournalWriteFenced)) return CompletableFuture.failedFuture(cause);
      return fence.renewNow().thenCompose(done -> {
        fence.leasesFor(pids);
        return write(rows, leases);
      });
    });
    return FutureConverters.asScala(written);
  }

  private CompletionStage<BoxedUnit> write(
      Seq<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> rows, Set<String> leases) {
    DBIOAction<BoxedUnit, slick.dbio.NoStream, slick.dbio.Effect.All> check = SimpleJdbcAction.apply(ctx -> {
      try {
        fence.verify(ctx.connection(), leases);
      } catch (SQLException e) {
        throw new IllegalStateException("journal lease check failed: " + e.getMessage(), e);
      }
      return BoxedUnit.UNIT;
    });
    @SuppressWarnings({"rawtypes", "unchecked"})
    DBIOAction both = check.andThen((DBIOAction) queries().writeJournalRows(rows, ec()));
    @SuppressWarnings({"rawtypes", "unchecked"})
    DBIOAction tx = profile().api().jdbcActionExtensionMethods(both).transactionally();
    @SuppressWarnings("unchecked")
    Future<Object> run = db().run(tx);
    return FutureConverters.asJava(run).thenApply(any -> BoxedUnit.UNIT);
  }

  private Seq<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> byThisMember(
      Seq<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> xs) {
    String writer = fence.owner();
    java.util.List<Tuple2<JournalPekkoSerializationRow, scala.collection.immutable.Set<String>>> out =
        new java.util.ArrayList<>(xs.size());
    xs.foreach(x -> {
      JournalPekkoSerializationRow r = x._1();
      out.add(Tuple2.apply(new JournalPekkoSerializationRow(r.ordering(), r.deleted(), r.persistenceId(),
          r.sequenceNumber(), writer, r.writeTimestamp(), r.adapterManifest(), r.eventPayload(), r.eventSerId(),
          r.eventSerManifest(), r.metaPayload(), r.metaSerId(), r.metaSerManifest()), x._2()));
      return null;
    });
    return CollectionConverters.asScala(out).toSeq();
  }
}
