package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/**
 * What the asks of one request share, YARN's scheduler key with the container size: the asks of a
 * key at {@code *}, at racks and at hosts are one request at several locality levels.
 */
public record RequestKey(int priority, Resource capability, long allocationRequestId, boolean am) {
  public static RequestKey of(Ask a) {
    return new RequestKey(a.priority(), a.capability(), a.allocationRequestId(), a.am());
  }
}
