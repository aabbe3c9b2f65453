package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/**
 * A live container that preemption may choose.
 *
 * @param requestPriority the priority of the request it was allocated for (a larger number is a less
 *     important request, as in YARN); with {@code allocationRequestId} it orders an application's
 *     containers for the capacity policy's preemption
 */
public record ContainerSnapshot(String containerId, String appId, String nodeId, Resource resource, boolean am,
    long allocatedTime, int requestPriority, long allocationRequestId) {

  /** For a policy that does not read the request: priority 0, allocation request id 0. */
  public ContainerSnapshot(String containerId, String appId, String nodeId, Resource resource, boolean am,
      long allocatedTime) {
    this(containerId, appId, nodeId, resource, am, allocatedTime, 0, 0);
  }
}
