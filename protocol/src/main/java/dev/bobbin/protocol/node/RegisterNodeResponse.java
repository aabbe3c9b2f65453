package dev.bobbin.protocol.node;

import dev.bobbin.protocol.NodeAction;
import java.util.List;

/**
 * RM → NM. {@code containerTokenKeys} are the keys with which the NM verifies container tokens
 * (never a key that signs AM tokens); {@code rmIdentifier} is the cluster timestamp; {@code
 * rmEpoch} the epoch of the scheduler that accepted the registration (see {@link
 * NodeHeartbeatResponse}).
 */
public record RegisterNodeResponse(
    NodeAction nodeAction,
    String diagnostics,
    long rmIdentifier,
    long heartbeatIntervalMs,
    List<ContainerTokenKey> containerTokenKeys,
    long rmEpoch) {
  public RegisterNodeResponse {
    containerTokenKeys = containerTokenKeys == null ? List.of() : List.copyOf(containerTokenKeys);
  }

  public RegisterNodeResponse(
      NodeAction nodeAction, String diagnostics, long rmIdentifier, long heartbeatIntervalMs,
      List<ContainerTokenKey> containerTokenKeys) {
    this(nodeAction, diagnostics, rmIdentifier, heartbeatIntervalMs, containerTokenKeys, 0);
  }
}
