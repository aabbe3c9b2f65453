package dev.bobbin.protocol.rest;

/**
 * YARN's {@code ContainerInfo} as the RM lists an attempt's containers ({@code GET
 * /ws/v1/cluster/apps/{id}/appattempts/{attemptId}/containers}): where each runs.
 *
 * @param nodeHttpAddress the node's HTTP address, with its scheme
 */
public record AttemptContainerInfo(String containerId, String nodeId, String nodeHttpAddress, String containerState) {}
