package dev.bobbin.protocol.rest;

/**
 * YARN's {@code AppAttemptInfo} ({@code GET /ws/v1/cluster/apps/{id}/appattempts}); {@code
 * exitStatus}, the AM container's, is Bobbin's and null from a server without it.
 */
public record AppAttemptInfo(
    int id,
    String appAttemptId,
    long startTime,
    long finishedTime,
    String containerId,
    String nodeHttpAddress,
    String nodeId,
    String logsLink,
    String appAttemptState,
    Integer exitStatus,
    String diagnosticsInfo) {}
