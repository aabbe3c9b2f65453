package dev.bobbin.core.directory;

import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.persistence.JournalSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.query.Sequence;
import org.apache.pekko.projection.eventsourced.EventEnvelope;
import org.apache.pekko.projection.jdbc.javadsl.JdbcHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a group of tagged application events to the list, in the transaction that also stores
 * the projection's offset. Each application's next state comes from the entity's own event handler
 * ({@link ApplicationEntity.State#apply}) applied to its listed state, so the list and the entity
 * never disagree. An application that ends is dropped from its queue before the transaction
 * commits: the queue has acknowledged it (or refused it) by the time the list shows it ended.
 */
final class AppDirectoryHandler
    extends JdbcHandler<List<EventEnvelope<ApplicationEntity.Event>>, JournalSession> {
  private static final Logger log = LoggerFactory.getLogger(AppDirectoryHandler.class);

  private final AppDirectoryTable table;
  private final int maxCompleted;
  private final Function<String, RecipientRef<QueueEntity.Command>> queues;
  private final Duration askTimeout;
  private final Scheduler scheduler;

  /**
   * @param maxCompleted ended applications kept in the list, the most recently ended
   * @param queues a queue's entity, by name
   * @param askTimeout how long a queue may take to acknowledge, over all tries; after it the
   *     group fails, and the projection reads it again after its restart backoff
   */
  /** Whether the policy counts every application in {@link QueueEntity#CLUSTER}. */
  private final BooleanSupplier clusterCounted;

  AppDirectoryHandler(AppDirectoryTable table, int maxCompleted,
      Function<String, RecipientRef<QueueEntity.Command>> queues, Duration askTimeout, Scheduler scheduler,
      BooleanSupplier clusterCounted) {
    this.clusterCounted = clusterCounted;
    this.table = table;
    this.maxCompleted = maxCompleted;
    this.queues = queues;
    this.askTimeout = askTimeout;
    this.scheduler = scheduler;
  }

  /** What a group of events makes of the listed applications they concern. */
  record Folded(Map<String, AppDirectoryTable.Listed> apps, Map<AppState, Long> counts,
      List<ApplicationEntity.State> ended) {}

  @Override
  public void process(JournalSession session, List<EventEnvelope<ApplicationEntity.Event>> envelopes)
      throws Exception {
    session.withConnection(conn -> {
      apply(conn, envelopes);
      return Done.getInstance();
    });
  }

  private void apply(Connection conn, List<EventEnvelope<ApplicationEntity.Event>> envelopes) throws SQLException {
    Set<String> ids = new LinkedHashSet<>();
    for (EventEnvelope<ApplicationEntity.Event> env : envelopes) ids.add(appId(env.persistenceId()));
    Map<String, AppDirectoryTable.Listed> listed = table.load(conn, ids);
    Folded folded = fold(listed, envelopes);
    removeFromQueues(folded.ended());
    table.write(conn, folded.apps(), listed.keySet());
    table.addCounts(conn, folded.counts());
    if (!folded.ended().isEmpty()) {
      List<String> dropped = table.dropEndedBeyond(conn, maxCompleted);
      if (!dropped.isEmpty()) {
        int rows = EndedAppJournal.remove(conn, dropped);
        log.debug("Dropped {} ended application(s) from the list and {} of their rows from the journal, keeping {}",
            dropped.size(), rows, maxCompleted);
      }
    }
    folded.ended().forEach(app -> ApplicationSummary.log(app.report()));
  }

  static Folded fold(Map<String, AppDirectoryTable.Listed> listed,
      List<EventEnvelope<ApplicationEntity.Event>> envelopes) {
    Map<String, AppDirectoryTable.Listed> apps = new LinkedHashMap<>();
    Map<AppState, Long> counts = new EnumMap<>(AppState.class);
    List<ApplicationEntity.State> ended = new ArrayList<>();
    for (EventEnvelope<ApplicationEntity.Event> env : envelopes) {
      String id = appId(env.persistenceId());
      AppDirectoryTable.Listed current = apps.containsKey(id) ? apps.get(id) : listed.get(id);
      // Every application's first event is its submission; one without a row has left the list.
      if (current == null && !(env.event() instanceof ApplicationEntity.Submitted)) continue;
      ApplicationEntity.State before = current == null ? ApplicationEntity.State.empty(id) : current.entity();
      ApplicationEntity.State after = before.apply(env.event());
      Long endedAt = current == null ? null : current.ended();
      if (current == null) {
        counts.merge(after.state(), 1L, Long::sum);
      } else if (before.state() != after.state()) {
        counts.merge(before.state(), -1L, Long::sum);
        counts.merge(after.state(), 1L, Long::sum);
      }
      if (after.state().isFinal() && !before.state().isFinal()) {
        endedAt = ((Sequence) env.offset()).value();
        ended.add(after);
      }
      apps.put(id, new AppDirectoryTable.Listed(after, endedAt));
    }
    return new Folded(apps, counts, ended);
  }

  /** Waits until every ended application's queue has acknowledged dropping it, or refused to. */
  private void removeFromQueues(List<ApplicationEntity.State> ended) {
    CompletableFuture<?>[] acks = ended.stream().map(this::removeFromQueue).toArray(CompletableFuture[]::new);
    try {
      CompletableFuture.allOf(acks).join();
    } catch (CompletionException e) {
      throw new IllegalStateException("a queue did not acknowledge an ended application", Retrying.cause(e));
    }
  }

  /**
   * From its leaf's entity, from every other queue a move of it named (each lets go of an
   * application it does not hold without a write), and from the cluster-wide count when the policy
   * keeps one.
   */
  private CompletableFuture<Void> removeFromQueue(ApplicationEntity.State app) {
    Set<String> held = new LinkedHashSet<>();
    held.add(app.submission().queue());
    held.addAll(app.moveQueues());
    if (clusterCounted.getAsBoolean()) held.add(QueueEntity.CLUSTER);
    return CompletableFuture.allOf(held.stream().map(q -> removeFrom(q, app.appId())).toArray(CompletableFuture[]::new));
  }

  private CompletableFuture<Void> removeFrom(String queue, String appId) {
    return Retrying.<Done>ask(t -> AskPattern.askWithStatus(queues.apply(queue),
            r -> new QueueEntity.RemoveApp(appId, r), t, scheduler), askTimeout)
        .<Void>handle((ok, err) -> {
          if (err == null) return null;
          Throwable cause = Retrying.cause(err);
          if (cause instanceof StatusReply.ErrorMessage) {
            log.warn("Queue {} refused to drop ended application {}: {}", queue, appId, cause.getMessage());
            return null;
          }
          log.warn("Queue {} did not acknowledge that application {} ended: {}", queue, appId,
              cause.toString());
          throw new CompletionException(cause);
        })
        .toCompletableFuture();
  }

  private static String appId(String persistenceId) {
    int bar = persistenceId.indexOf('|');
    return bar < 0 ? persistenceId : persistenceId.substring(bar + 1);
  }
}
