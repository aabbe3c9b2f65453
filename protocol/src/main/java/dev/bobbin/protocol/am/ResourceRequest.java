package dev.bobbin.protocol.am;

import dev.bobbin.protocol.Resource;

/**
 * An AM's ask. {@code numContainers} is the total outstanding for this key (priority, resource
 * name, capability, allocationRequestId), not a delta: each ask replaces the previous one, and 0
 * cancels. A lower {@code priority} number is served first. {@code resourceName} is a host, a rack
 * or {@code *}.
 */
public record ResourceRequest(
    int priority,
    String resourceName,
    Resource capability,
    int numContainers,
    boolean relaxLocality,
    long allocationRequestId) {
  public static final String ANY = "*";

  public ResourceRequest {
    resourceName = resourceName == null || resourceName.isBlank() ? ANY : resourceName;
  }

  public static ResourceRequest any(int priority, Resource capability, int numContainers) {
    return new ResourceRequest(priority, ANY, capability, numContainers, true, -1);
  }
}
