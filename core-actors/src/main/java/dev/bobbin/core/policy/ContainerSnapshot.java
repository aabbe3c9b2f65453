package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/** A live container that preemption may choose. */
public record ContainerSnapshot(
    String containerId, String appId, String nodeId, Resource resource, boolean am, long allocatedTime) {}
