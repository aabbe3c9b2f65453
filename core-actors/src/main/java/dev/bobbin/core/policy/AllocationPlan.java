package dev.bobbin.core.policy;

import java.util.List;

/** What one scheduling pass decided, in the order it decided it. */
public record AllocationPlan(List<Assignment> assignments) {
  public static final AllocationPlan EMPTY = new AllocationPlan(List.of());

  public AllocationPlan {
    assignments = List.copyOf(assignments);
  }

  public boolean isEmpty() {
    return assignments.isEmpty();
  }
}
