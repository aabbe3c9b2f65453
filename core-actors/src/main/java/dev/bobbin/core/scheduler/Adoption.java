package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.Resource;

/**
 * Whether a container a NodeManager runs, but the scheduler's model lacks, is a live allocation
 * to take back into the model. It can be missing after a failover (written by the previous
 * scheduler after this one read the journal, or recovered against a node the journal did not
 * know as usable); killing it would lose work because an RM member failed.
 */
final class Adoption {
  private Adoption() {}

  /** Null when the container is adopted; otherwise why it is killed instead. */
  static String refusal(ContainerEntity.Report report, String nodeId, boolean attemptLive, Resource nodeAllocated,
      Resource nodeCapacity) {
    return refusal(report, nodeId, attemptLive, nodeAllocated, nodeCapacity, (size, free) -> free.fits(size));
  }

  /** @param fits whether a container of the first size fits in the second, the node's free space */
  static String refusal(ContainerEntity.Report report, String nodeId, boolean attemptLive, Resource nodeAllocated,
      Resource nodeCapacity, java.util.function.BiPredicate<Resource, Resource> fits) {
    if (report == null || report.allocation() == null) return "no allocation of it in the journal";
    if (report.phase() == ContainerEntity.Phase.COMPLETED) return "its completion is already recorded";
    ContainerEntity.Allocation a = report.allocation();
    if (!a.nodeId().equals(nodeId)) return "it was allocated on node " + a.nodeId();
    if (!attemptLive) return "its application attempt " + a.attemptId() + " has ended";
    if (!fits.test(a.resource(), nodeCapacity.minus(nodeAllocated))) {
      return "node " + nodeId + " has no room for its " + a.resource() + " (allocated " + nodeAllocated
          + " of " + nodeCapacity + ")";
    }
    return null;
  }
}
