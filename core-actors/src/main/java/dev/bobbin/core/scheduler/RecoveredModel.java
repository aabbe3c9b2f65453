package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import java.util.Map;

/** What the journal says about applications, containers and nodes when a scheduler starts. */
public record RecoveredModel(
    Map<String, ApplicationEntity.State> apps,
    Map<String, ContainerEntity.State> containers,
    Map<String, NodeEntity.State> nodes) {
  public static final RecoveredModel EMPTY = new RecoveredModel(Map.of(), Map.of(), Map.of());
}
