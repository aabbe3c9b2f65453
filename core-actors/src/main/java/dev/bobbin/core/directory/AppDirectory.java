package dev.bobbin.core.directory;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.persistence.JournalDatabase;
import dev.bobbin.persistence.JournalSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.persistence.jdbc.query.javadsl.JdbcReadJournal;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.projection.ProjectionBehavior;
import org.apache.pekko.projection.ProjectionId;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.eventsourced.javadsl.EventSourcedProvider;
import org.apache.pekko.projection.javadsl.GroupedProjection;
import org.apache.pekko.projection.javadsl.SourceProvider;
import org.apache.pekko.projection.jdbc.javadsl.JdbcProjection;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;

/**
 * The application list ({@code GET /ws/v1/cluster/apps}): a projection of the applications' tagged
 * events into the journal's database, run once in the cluster, that keeps every live application
 * and the most recently ended ones, with per-state counts. It stores its offset with what it
 * writes, so a restarted projection goes on from where it was. Every member reads the list from
 * the database with one query; it lags the entities by about the read journal's refresh interval
 * (bobbin.persistence.query-refresh-interval) and the projection's group window
 * (pekko.projection.grouped.group-after-duration).
 */
public final class AppDirectory {
  public static final ProjectionId PROJECTION_ID = ProjectionId.of("app-directory", ApplicationEntity.TAG);

  private final ActorSystem<?> system;
  private final AppDirectoryTable table;

  private AppDirectory(ActorSystem<?> system) {
    this.system = system;
    this.table = table(system);
  }

  /** The list as this member reads it; the projection runs wherever {@link #start} put it. */
  public static AppDirectory reader(ActorSystem<?> system) {
    return new AppDirectory(system);
  }

  /**
   * Runs the projection as a cluster singleton (call on every member) and returns this member's
   * reader.
   *
   * @param maxCompleted ended applications kept, the most recently ended
   * @param queues a queue's entity, by name, to drop each ended application from
   * @param askTimeout how long a queue may take to acknowledge an ended application
   * @param clusterCounted whether the policy counts every application in {@link QueueEntity#CLUSTER},
   *     which an ended one then leaves too
   */
  public static AppDirectory start(ActorSystem<?> system, int maxCompleted,
      Function<String, RecipientRef<QueueEntity.Command>> queues, Duration askTimeout, BooleanSupplier clusterCounted) {
    var projection = projection(system,
        EventSourcedProvider.eventsByTag(system, JdbcReadJournal.Identifier(), ApplicationEntity.TAG),
        maxCompleted, queues, askTimeout, clusterCounted);
    ClusterSingleton.get(system).init(SingletonActor.of(
            Behaviors.supervise(ProjectionBehavior.create(projection))
                .onFailure(SupervisorStrategy.restartWithBackoff(Duration.ofSeconds(1), Duration.ofSeconds(10), 0.2)),
            "app-directory")
        .withStopMessage(ProjectionBehavior.stopMessage()));
    return reader(system);
  }

  /**
   * The projection over {@code events}: groups of them (pekko.projection.grouped) each applied in
   * one transaction with the offset after them.
   */
  static GroupedProjection<Offset, EventEnvelope<ApplicationEntity.Event>> projection(ActorSystem<?> system,
      SourceProvider<Offset, EventEnvelope<ApplicationEntity.Event>> events, int maxCompleted,
      Function<String, RecipientRef<QueueEntity.Command>> queues, Duration askTimeout) {
    return projection(system, events, maxCompleted, queues, askTimeout, () -> false);
  }

  static GroupedProjection<Offset, EventEnvelope<ApplicationEntity.Event>> projection(ActorSystem<?> system,
      SourceProvider<Offset, EventEnvelope<ApplicationEntity.Event>> events, int maxCompleted,
      Function<String, RecipientRef<QueueEntity.Command>> queues, Duration askTimeout, BooleanSupplier clusterCounted) {
    AppDirectoryTable table = table(system);
    return JdbcProjection.groupedWithin(PROJECTION_ID, events, () -> new JournalSession(system),
        () -> new AppDirectoryHandler(table, maxCompleted, queues, askTimeout, system.scheduler(), clusterCounted),
        system);
  }

  /** Every listed application, by id. */
  public CompletionStage<List<AppReport>> list() {
    return read(table::list);
  }

  public CompletionStage<AppCounts> counts() {
    return read(table::counts);
  }

  private interface Query<T> {
    T run(Connection conn) throws SQLException;
  }

  private <T> CompletionStage<T> read(Query<T> query) {
    return CompletableFuture.supplyAsync(() -> {
      try (Connection conn = JournalDatabase.source(system).createConnection()) {
        return query.run(conn);
      } catch (SQLException e) {
        throw new IllegalStateException("could not read the application list: " + e.getMessage(), e);
      }
    }, system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  private static AppDirectoryTable table(ActorSystem<?> system) {
    return new AppDirectoryTable(SerializationExtension.get(system),
        JacksonObjectMapperProvider.get(system).getOrCreate("jackson-json", Optional.empty()));
  }
}
