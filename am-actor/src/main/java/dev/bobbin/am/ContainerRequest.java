package dev.bobbin.am;

import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * One container the AM wants, as in Hadoop's {@code AMRMClient.ContainerRequest}. The client turns
 * its outstanding requests into per-key totals: one entry per listed node and rack, plus {@code *}.
 *
 * @param nodes preferred hosts (may be empty)
 * @param racks preferred racks (may be empty)
 * @param relaxLocality false keeps the container on the listed nodes or racks
 * @param allocationRequestId tells apart requests of equal priority; -1 when unused
 */
public record ContainerRequest(
    Resource capability,
    List<String> nodes,
    List<String> racks,
    int priority,
    boolean relaxLocality,
    long allocationRequestId) {

  public ContainerRequest {
    if (capability == null || capability.isNegative()) {
      throw new IllegalArgumentException("Invalid capability " + capability);
    }
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    racks = racks == null ? List.of() : List.copyOf(racks);
    if (priority < 0) throw new IllegalArgumentException("Priority must be >= 0, was " + priority);
    if (!relaxLocality && nodes.isEmpty() && racks.isEmpty()) {
      throw new IllegalArgumentException("relaxLocality=false needs at least one node or rack");
    }
  }

  /** A container of this size anywhere in the cluster. */
  public static ContainerRequest any(Resource capability, int priority) {
    return new ContainerRequest(capability, List.of(), List.of(), priority, true, -1);
  }
}
