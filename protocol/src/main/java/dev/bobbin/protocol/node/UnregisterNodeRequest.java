package dev.bobbin.protocol.node;

/**
 * NM → RM {@code POST /ws/v1/bobbin/nm/unregister} (YARN's UnRegisterNodeManager): the NodeManager
 * is stopping gracefully. The RM marks the node SHUTDOWN at once instead of waiting out its liveness
 * expiry; the node may register again later.
 */
public record UnregisterNodeRequest(String nodeId) {}
