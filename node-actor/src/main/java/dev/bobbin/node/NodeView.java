package dev.bobbin.node;

import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.monitor.ContainerUsages;
import dev.bobbin.node.health.NodeHealth;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Set;

/**
 * A read-only snapshot of a node for its REST API and metrics.
 *
 * @param usages what the container monitor last measured of each running container
 */
public record NodeView(
    NodeIdentity identity,
    String version,
    RmLinkState rmLink,
    String rmAddress,
    long startedAtMs,
    long lastRmContactMs,
    Resource capability,
    Resource allocated,
    List<ContainerRecord> containers,
    Set<String> finishedApplications,
    long launchedTotal,
    long completedTotal,
    long heartbeatsTotal,
    long rmCallFailuresTotal,
    NodeHealth health,
    ContainerUsages usages) {

  /** Where the node stands with the RM. */
  public enum RmLinkState {
    REGISTERING,
    REGISTERED,
    SHUT_DOWN_BY_RM,
    STOPPING
  }

  public long runningContainers() {
    return containers.stream().filter(c -> !c.isFinished()).count();
  }
}
