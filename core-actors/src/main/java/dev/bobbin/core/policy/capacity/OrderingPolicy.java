package dev.bobbin.core.policy.capacity;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A queue's {@code ordering-policy}: for a leaf, the order of its applications; for a parent, the
 * order it offers resources to its children.
 */
public enum OrderingPolicy {
  /** Leaf: higher application priority first, then submission order. */
  FIFO("fifo", true),
  /** Leaf: the application using least first. */
  FAIR("fair", true),
  /** Parent: least used over guaranteed first; queue priorities are not looked at (Hadoop's default). */
  UTILIZATION("utilization", false),
  /** Parent: as {@link #UTILIZATION}, with queue priorities (Hadoop's PriorityUtilizationQueueOrderingPolicy). */
  PRIORITY_UTILIZATION("priority-utilization", false);

  private final String configName;
  private final boolean forLeaf;

  OrderingPolicy(String configName, boolean forLeaf) {
    this.configName = configName;
    this.forLeaf = forLeaf;
  }

  /** The value as it is written in {@code capacity-scheduler.xml}. */
  public String configName() {
    return configName;
  }

  public boolean forLeaf() {
    return forLeaf;
  }

  /** Whether a parent with this policy looks at its children's priorities. */
  public boolean respectsPriority() {
    return this == PRIORITY_UTILIZATION;
  }

  public static OrderingPolicy fromConfig(String value) {
    String v = value == null ? "" : value.trim();
    for (OrderingPolicy p : values()) {
      if (p.configName.equals(v)) return p;
    }
    throw new IllegalArgumentException("ordering-policy: unknown value '" + value + "'; expected one of "
        + Arrays.stream(values()).map(OrderingPolicy::configName).collect(Collectors.joining(", ")));
  }
}
