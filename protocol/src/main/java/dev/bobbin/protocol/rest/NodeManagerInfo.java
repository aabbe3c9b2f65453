package dev.bobbin.protocol.rest;

/**
 * YARN's NodeManager {@code NodeInfo} ({@code GET /ws/v1/node/info}): the node's id and address,
 * what it offers to containers ({@code totalPmemAllocatedContainersMB}, {@code
 * totalVCoresAllocatedContainers}) and what they hold now.
 */
public record NodeManagerInfo(
    String id,
    String nodeHostName,
    String nodeHTTPAddress,
    long totalPmemAllocatedContainersMB,
    long totalVmemAllocatedContainersMB,
    long totalVCoresAllocatedContainers,
    long lastNodeUpdateTime,
    String healthReport,
    boolean nodeHealthy,
    String nodeManagerVersion,
    String rmLinkState,
    String rmAddress,
    long allocatedMB,
    long allocatedVCores,
    long containersRunning) {}
