package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.persistence.ReadJournals;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * Rebuilds the scheduler's model from the journal by folding every entity's events with the
 * entity's own event handler. It reads entity by entity (persistence ids, then each one's events
 * by sequence number), which is consistent as soon as a write is acknowledged; a query by tag is
 * not, since the JDBC read journal only sees orderings its sequence tracker has caught up with,
 * and a freshly started member lags. Its cost grows with history; snapshots of the scheduler's
 * model would bound it.
 */
public final class JournalRecovery {
  private JournalRecovery() {}

  public static CompletionStage<RecoveredModel> read(ActorSystem<?> system) {
    return fold(system, ApplicationEntity.TYPE_KEY.name(), ApplicationEntity.State::empty,
            (s, e) -> s.apply((ApplicationEntity.Event) e))
        .thenCompose(apps -> fold(system, ContainerEntity.TYPE_KEY.name(), id -> ContainerEntity.State.EMPTY,
                (ContainerEntity.State s, Object e) -> s.apply((ContainerEntity.Event) e))
            .thenCompose(containers -> fold(system, NodeEntity.TYPE_KEY.name(), id -> NodeEntity.State.EMPTY,
                    (NodeEntity.State s, Object e) -> s.apply((NodeEntity.Event) e))
                .thenApply(nodes -> new RecoveredModel(apps, containers, nodes))));
  }

  private static <S> CompletionStage<Map<String, S>> fold(ActorSystem<?> system, String typeName,
      java.util.function.Function<String, S> empty, BiFunction<S, Object, S> apply) {
    var journal = ReadJournals.of(system);
    String prefix = typeName + "|";
    return journal.currentPersistenceIds()
        .filter(pid -> pid.startsWith(prefix))
        .mapAsync(4, pid -> {
          String id = pid.substring(prefix.length());
          return journal.currentEventsByPersistenceId(pid, 0L, Long.MAX_VALUE)
              .runWith(Sink.fold(empty.apply(id), (S st, EventEnvelope env) -> apply.apply(st, env.event())), system)
              .thenApply(st -> Map.entry(id, st));
        })
        .runWith(Sink.fold(new HashMap<String, S>(), (Map<String, S> acc, Map.Entry<String, S> e) -> {
          acc.put(e.getKey(), e.getValue());
          return acc;
        }), system)
        .thenApply(m -> (Map<String, S>) m);
  }
}
