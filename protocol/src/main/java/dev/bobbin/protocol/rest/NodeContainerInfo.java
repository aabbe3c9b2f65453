package dev.bobbin.protocol.rest;

/** YARN's NodeManager {@code ContainerInfo} ({@code GET /ws/v1/node/containers}): one container on the node. */
public record NodeContainerInfo(
    String id,
    String state,
    String nodeId,
    String containerLogsLink,
    String user,
    int exitCode,
    String diagnostics,
    long totalMemoryNeededMB,
    int totalVCoresNeeded) {}
