package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * Decides placements from read-only views. Implementations never mutate their inputs and never
 * place more on a node than its free capacity.
 */
public interface SchedulingPolicy {
  /** With no limit on what ApplicationMasters may hold. */
  default AllocationPlan assign(List<String> queues, List<NodeView> nodes, List<AppView> apps) {
    return assign(queues, nodes, apps, Resource.of(Long.MAX_VALUE, Integer.MAX_VALUE));
  }

  /** With no limit on the number of placements. */
  default AllocationPlan assign(List<String> queues, List<NodeView> nodes, List<AppView> apps, Resource amHeadroom) {
    return assign(queues, nodes, apps, amHeadroom, Integer.MAX_VALUE);
  }

  /**
   * @param amHeadroom what AM containers placed in this pass may take together; an AM ask that
   *     does not fit waits, so that AMs cannot fill the cluster and leave their workers no room
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the
   *     plan without a limit, decided without the cost of the rest
   */
  AllocationPlan assign(List<String> queues, List<NodeView> nodes, List<AppView> apps, Resource amHeadroom,
      int limit);
}
