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
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * Rebuilds the scheduler's model from the journal by folding every entity's tagged events with the
 * entity's own event handler. It reads the whole tag, so its cost grows with history; snapshots of
 * the scheduler's model would bound it.
 */
public final class JournalRecovery {
  private JournalRecovery() {}

  public static CompletionStage<RecoveredModel> read(ActorSystem<?> system) {
    return fold(system, ApplicationEntity.TAG, ApplicationEntity.State::empty,
            (s, e) -> s.apply((ApplicationEntity.Event) e))
        .thenCompose(apps -> fold(system, ContainerEntity.TAG, id -> ContainerEntity.State.EMPTY,
                (ContainerEntity.State s, Object e) -> s.apply((ContainerEntity.Event) e))
            .thenCompose(containers -> fold(system, NodeEntity.TAG, id -> NodeEntity.State.EMPTY,
                    (NodeEntity.State s, Object e) -> s.apply((NodeEntity.Event) e))
                .thenApply(nodes -> new RecoveredModel(apps, containers, nodes))));
  }

  private static <S> CompletionStage<Map<String, S>> fold(ActorSystem<?> system, String tag,
      java.util.function.Function<String, S> empty, BiFunction<S, Object, S> apply) {
    return ReadJournals.of(system).currentEventsByTag(tag, Offset.noOffset())
        .runWith(Sink.fold(new HashMap<String, S>(), (Map<String, S> acc, EventEnvelope env) -> {
          String id = entityId(env.persistenceId());
          acc.put(id, apply.apply(acc.getOrDefault(id, empty.apply(id)), env.event()));
          return acc;
        }), system)
        .thenApply(m -> (Map<String, S>) m);
  }

  private static String entityId(String persistenceId) {
    int bar = persistenceId.indexOf('|');
    return bar < 0 ? persistenceId : persistenceId.substring(bar + 1);
  }
}
