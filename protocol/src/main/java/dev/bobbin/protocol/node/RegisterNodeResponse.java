package dev.bobbin.protocol.node;

import dev.bobbin.protocol.NodeAction;

/**
 * RM → NM. {@code containerTokenKey} is the secret (base64url) with which the NM verifies
 * container tokens; {@code rmIdentifier} is the cluster timestamp.
 */
public record RegisterNodeResponse(
    NodeAction nodeAction,
    String diagnostics,
    long rmIdentifier,
    long heartbeatIntervalMs,
    String containerTokenKey) {}
