package dev.bobbin.protocol.node;

import dev.bobbin.protocol.NodeAction;
import java.util.List;

/**
 * RM → NM. {@code containerTokenKeys} are the keys with which the NM verifies container tokens
 * (never a key that signs AM tokens); {@code rmIdentifier} is the cluster timestamp; {@code
 * rmEpoch} the epoch of the scheduler that accepted the registration (see {@link
 * NodeHeartbeatResponse}); {@code clusterId} the identity of the cluster, made with its journal
 * ("" from an RM that has none): epochs are compared only within one cluster.
 */
public record RegisterNodeResponse(
    NodeAction nodeAction,
    String diagnostics,
    long rmIdentifier,
    long heartbeatIntervalMs,
    List<ContainerTokenKey> containerTokenKeys,
    long rmEpoch,
    String clusterId) {
  public RegisterNodeResponse {
    containerTokenKeys = containerTokenKeys == null ? List.of() : List.copyOf(containerTokenKeys);
    clusterId = clusterId == null ? "" : clusterId;
  }

  public RegisterNodeResponse(
      NodeAction nodeAction, String diagnostics, long rmIdentifier, long heartbeatIntervalMs,
      List<ContainerTokenKey> containerTokenKeys, long rmEpoch) {
    this(nodeAction, diagnostics, rmIdentifier, heartbeatIntervalMs, containerTokenKeys, rmEpoch, "");
  }

  public RegisterNodeResponse(
      NodeAction nodeAction, String diagnostics, long rmIdentifier, long heartbeatIntervalMs,
      List<ContainerTokenKey> containerTokenKeys) {
    this(nodeAction, diagnostics, rmIdentifier, heartbeatIntervalMs, containerTokenKeys, 0);
  }
}
