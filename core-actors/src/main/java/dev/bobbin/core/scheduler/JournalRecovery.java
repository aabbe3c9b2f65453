package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.persistence.JournalScan;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Rebuilds the scheduler's model from the journal by folding every entity's events with the
 * entity's own event handler ({@link JournalScan}: one pass over the journal for all three types,
 * consistent as soon as a write is acknowledged). Its cost grows with history; snapshots of the
 * scheduler's model would bound it.
 */
public final class JournalRecovery {
  private JournalRecovery() {}

  public static CompletionStage<RecoveredModel> read(ActorSystem<?> system) {
    var apps = new JournalScan.Fold<>(ApplicationEntity.TYPE_KEY.name(), ApplicationEntity.State::empty,
        (ApplicationEntity.State s, Object e) -> s.apply((ApplicationEntity.Event) e));
    var containers = new JournalScan.Fold<>(ContainerEntity.TYPE_KEY.name(), id -> ContainerEntity.State.EMPTY,
        (ContainerEntity.State s, Object e) -> s.apply((ContainerEntity.Event) e));
    var nodes = new JournalScan.Fold<>(NodeEntity.TYPE_KEY.name(), id -> NodeEntity.State.EMPTY,
        (NodeEntity.State s, Object e) -> s.apply((NodeEntity.Event) e));
    return JournalScan.foldAll(system, List.of(apps, containers, nodes))
        .thenApply(done -> new RecoveredModel(apps.states(), containers.states(), nodes.states()));
  }
}
