package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.persistence.JournalScan;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Rebuilds the scheduler's model from the journal by folding every entity's events with the
 * entity's own event handler ({@link JournalScan}: one query per entity type, consistent as soon
 * as a write is acknowledged). The three types are read at once. Its cost grows with history;
 * snapshots of the scheduler's model would bound it.
 */
public final class JournalRecovery {
  private JournalRecovery() {}

  public static CompletionStage<RecoveredModel> read(ActorSystem<?> system) {
    var apps = JournalScan.fold(system, ApplicationEntity.TYPE_KEY.name(), ApplicationEntity.State::empty,
        (ApplicationEntity.State s, Object e) -> s.apply((ApplicationEntity.Event) e));
    var containers = JournalScan.fold(system, ContainerEntity.TYPE_KEY.name(), id -> ContainerEntity.State.EMPTY,
        (ContainerEntity.State s, Object e) -> s.apply((ContainerEntity.Event) e));
    var nodes = JournalScan.fold(system, NodeEntity.TYPE_KEY.name(), id -> NodeEntity.State.EMPTY,
        (NodeEntity.State s, Object e) -> s.apply((NodeEntity.Event) e));
    return apps.thenCombine(containers, (a, c) -> Map.entry(a, c))
        .thenCombine(nodes, (ac, n) -> new RecoveredModel(ac.getKey(), ac.getValue(), n));
  }
}
