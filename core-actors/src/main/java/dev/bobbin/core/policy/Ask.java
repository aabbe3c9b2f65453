package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/**
 * Outstanding demand of one application attempt for one request key at one place.
 * {@code resourceName} is {@code *}, a rack, a host or a node id; {@code count} is how many containers
 * are still wanted there. The asks of one key together are a {@link LocalityRequest}.
 */
public record Ask(
    int priority, String resourceName, Resource capability, int count, boolean relaxLocality,
    long allocationRequestId, boolean am) {
  public static final String ANY = "*";

  /** An ordinary ask for {@code count} containers of {@code size} anywhere, at priority 1. */
  public static Ask anyOf(Resource size, int count) {
    return new Ask(1, ANY, size, count, true, -1, false);
  }

  public boolean isAny() {
    return ANY.equals(resourceName);
  }

  public Ask withCount(int newCount) {
    return new Ask(priority, resourceName, capability, newCount, relaxLocality, allocationRequestId, am);
  }
}
