package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.capacity.CapacityPass.PassApp;
import java.util.Comparator;

/**
 * The order in which a leaf offers resources to its applications, as its {@code ordering-policy}
 * says: Hadoop's FifoOrderingPolicy (higher priority first, then submission order) or its
 * FairOrderingPolicy (the application using least memory first, its use divided by
 * log2(1 + demand) with {@code enable-size-based-weight}; then submission order).
 */
final class AppOrder {
  private AppOrder() {}

  private static final Comparator<PassApp> SUBMISSION =
      Comparator.comparingLong((PassApp a) -> a.view.submitTime()).thenComparing(a -> a.view.appId());

  static Comparator<PassApp> of(OrderingPolicy policy, boolean sizeBasedWeight) {
    if (policy == OrderingPolicy.FAIR) {
      return Comparator.comparingDouble((PassApp a) -> magnitude(a, sizeBasedWeight)).thenComparing(SUBMISSION);
    }
    return Comparator.comparingInt((PassApp a) -> a.priority).reversed().thenComparing(SUBMISSION);
  }

  private static double magnitude(PassApp a, boolean sizeBasedWeight) {
    double magnitude = a.usage.memory();
    if (sizeBasedWeight && magnitude != 0) {
      double weight = Math.log1p(a.demand().memory()) / Math.log(2);
      if (weight != 0) magnitude /= weight;
    }
    return magnitude;
  }

  /**
   * An application's priority in its leaf: the leaf's {@code default-application-priority} when it
   * was submitted without one (0), at most {@code yarn.cluster.max-application-priority}.
   */
  static int effectivePriority(CapacityQueueSpec leaf, int submitted, int maxApplicationPriority) {
    int priority = submitted == 0 ? leaf.defaultApplicationPriority() : submitted;
    return Math.min(priority, maxApplicationPriority);
  }
}
