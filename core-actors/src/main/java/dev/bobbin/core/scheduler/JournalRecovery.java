package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.persistence.JournalCheckpoints;
import dev.bobbin.persistence.JournalScan;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the scheduler's model from the journal: the latest checkpoint of it
 * ({@link CheckpointWriter}), then every later event folded with the entity's own event handler
 * ({@link JournalScan}: one pass over the journal for all three types, consistent as soon as a
 * write is acknowledged). Without a checkpoint it folds the whole journal, which is always right.
 */
public final class JournalRecovery {
  private static final Logger log = LoggerFactory.getLogger(JournalRecovery.class);

  private JournalRecovery() {}

  public static CompletionStage<RecoveredModel> read(ActorSystem<?> system) {
    return latestCheckpoint(system)
        .thenCompose(base -> foldAfter(system, base, Long.MAX_VALUE))
        .thenApply(FoldedJournal::model);
  }

  /**
   * The latest checkpoint, or none if there is none or it cannot be read (say, written by a
   * version whose classes have changed since): the whole journal is then read instead.
   */
  static CompletionStage<FoldedJournal> latestCheckpoint(ActorSystem<?> system) {
    return JournalCheckpoints.latest(system, ModelCheckpoint.NAME).handle((checkpoint, err) -> {
      try {
        if (err != null) throw err;
        if (checkpoint.isEmpty()) return FoldedJournal.EMPTY;
        RecoveredModel model = ModelCheckpoint.model(checkpoint.get().parts());
        log.info("Scheduler checkpoint at ordering {}: {} applications, {} containers, {} nodes",
            checkpoint.get().ordering(), model.apps().size(), model.containers().size(), model.nodes().size());
        return new FoldedJournal(checkpoint.get().ordering(), model, 0);
      } catch (Throwable e) {
        log.warn("Could not read the scheduler's checkpoint, reading the whole journal instead: {}", e.toString());
        return FoldedJournal.EMPTY;
      }
    });
  }

  /** {@code base} with the events after its ordering, up to {@code upTo}, folded onto it. */
  static CompletionStage<FoldedJournal> foldAfter(ActorSystem<?> system, FoldedJournal base, long upTo) {
    return foldAfter(system, base, upTo, missing -> true);
  }

  /**
   * The same, stopping before a missing ordering that {@code passMissing} does not allow
   * ({@link JournalScan#foldRange(ActorSystem, List, long, long, LongPredicate)}); the result's
   * ordering is then the one below it.
   */
  static CompletionStage<FoldedJournal> foldAfter(ActorSystem<?> system, FoldedJournal base, long upTo,
      LongPredicate passMissing) {
    return foldAfter(system, base, upTo, passMissing, false);
  }

  /**
   * The same, for a checkpoint: it leaves out, without decoding their events, the containers that
   * {@link ModelCheckpoint#prune} would drop for having ended with their completion delivered. In
   * a busy journal most rows are of containers that start and end within one checkpoint interval,
   * and decoding them was most of the checkpoint writer's work.
   */
  static CompletionStage<FoldedJournal> foldForCheckpoint(ActorSystem<?> system, FoldedJournal base, long upTo,
      LongPredicate passMissing) {
    return foldAfter(system, base, upTo, passMissing, true);
  }

  private static CompletionStage<FoldedJournal> foldAfter(ActorSystem<?> system, FoldedJournal base, long upTo,
      LongPredicate passMissing, boolean leaveOutDelivered) {
    Set<String> delivered = new HashSet<>();
    var apps = new JournalScan.Fold<>(ApplicationEntity.TYPE_KEY.name(), ApplicationEntity.State::empty,
        (ApplicationEntity.State s, Object e) -> {
          if (e instanceof ApplicationEntity.CompletionsDelivered d) delivered.addAll(d.containerIds());
          return ModelCheckpoint.apply(s, (ApplicationEntity.Event) e);
        });
    var containers = new JournalScan.Fold<>(ContainerEntity.TYPE_KEY.name(), id -> ContainerEntity.State.EMPTY,
        (ContainerEntity.State s, Object e) -> ModelCheckpoint.apply(s, (ContainerEntity.Event) e));
    if (leaveOutDelivered) {
      var phases = PhaseManifests.of(system);
      // Delivery is folded from the applications' rows, all read before the held rows are looked at.
      containers.leavingOut((id, manifests) -> delivered.contains(id) && phases.endsCompleted(manifests));
    }
    var nodes = new JournalScan.Fold<>(NodeEntity.TYPE_KEY.name(), id -> NodeEntity.State.EMPTY,
        (NodeEntity.State s, Object e) -> s.apply((NodeEntity.Event) e));
    apps.seed(base.model().apps());
    containers.seed(base.model().containers());
    nodes.seed(base.model().nodes());
    return JournalScan.foldRange(system, List.of(apps, containers, nodes), base.ordering(), upTo, passMissing)
        .thenApply(scanned -> {
          // A delivery is recorded only after the container's completion was, so marking it once
          // the whole range is folded gives what folding it in order would.
          delivered.forEach(id -> containers.states().computeIfPresent(id, (k, c) -> ModelCheckpoint.delivered(c)));
          return new FoldedJournal(scanned.highestOrdering(), new RecoveredModel(
              existing(apps.states(), ApplicationEntity.State::exists),
              existing(containers.states(), c -> c.allocation() != null),
              nodes.states()), scanned.events());
        });
  }

  private static <S> Map<String, S> existing(Map<String, S> states, Predicate<S> exists) {
    states.values().removeIf(exists.negate());
    return states;
  }
}
