package dev.bobbin.core.policy;

import java.util.List;

/**
 * Decides placements from read-only views. Implementations never mutate their inputs and never
 * place more on a node than its free capacity.
 */
public interface SchedulingPolicy {
  AllocationPlan assign(List<String> queues, List<NodeView> nodes, List<AppView> apps);
}
