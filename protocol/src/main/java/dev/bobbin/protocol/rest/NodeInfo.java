package dev.bobbin.protocol.rest;

import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;

/** YARN's {@code NodeInfo} ({@code GET /ws/v1/cluster/nodes}); {@code totalResource} is YARN 3's. */
public record NodeInfo(
    String id,
    String rack,
    NodeState state,
    String nodeHostName,
    String nodeHTTPAddress,
    long lastHealthUpdate,
    String version,
    String healthReport,
    int numContainers,
    long usedMemoryMB,
    long availMemoryMB,
    int usedVirtualCores,
    int availableVirtualCores,
    Resource totalResource,
    Resource usedResource,
    Resource availableResource) {}
