package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;

/** A schedulable node as the policy sees it: {@code allocated} includes in-flight allocations. */
public record NodeView(String nodeId, String host, String rack, Resource capacity, Resource allocated) {
  public Resource free() {
    return capacity.minus(allocated);
  }

  public NodeView allocate(Resource r) {
    return new NodeView(nodeId, host, rack, capacity, allocated.plus(r));
  }
}
