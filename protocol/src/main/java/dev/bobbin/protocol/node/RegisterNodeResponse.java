package dev.bobbin.protocol.node;

import dev.bobbin.protocol.NodeAction;

/**
 * RM → NM. {@code containerTokenKey} is the secret (base64url) with which the NM verifies
 * container tokens; {@code rmIdentifier} is the cluster timestamp; {@code rmEpoch} the epoch of
 * the scheduler that accepted the registration (see {@link NodeHeartbeatResponse}).
 */
public record RegisterNodeResponse(
    NodeAction nodeAction,
    String diagnostics,
    long rmIdentifier,
    long heartbeatIntervalMs,
    String containerTokenKey,
    long rmEpoch) {
  public RegisterNodeResponse(
      NodeAction nodeAction, String diagnostics, long rmIdentifier, long heartbeatIntervalMs, String containerTokenKey) {
    this(nodeAction, diagnostics, rmIdentifier, heartbeatIntervalMs, containerTokenKey, 0);
  }
}
