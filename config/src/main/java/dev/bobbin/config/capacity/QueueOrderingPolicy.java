package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;

/**
 * How a parent queue orders its children when it offers them resources ({@code ordering-policy}
 * on a parent queue, inherited by the parent queues below it): the least used relative to its
 * guarantee first (utilization, the default), or by queue priority first (priority-utilization),
 * as Hadoop's PriorityUtilizationQueueOrderingPolicy.
 */
public enum QueueOrderingPolicy {
  UTILIZATION("utilization"),
  PRIORITY_UTILIZATION("priority-utilization");

  private final String hadoopName;

  QueueOrderingPolicy(String hadoopName) {
    this.hadoopName = hadoopName;
  }

  public String hadoopName() {
    return hadoopName;
  }

  /** Whether the queue priority decides before utilization. */
  public boolean respectsPriority() {
    return this == PRIORITY_UTILIZATION;
  }

  static boolean isName(String value) {
    for (QueueOrderingPolicy p : values()) {
      if (p.hadoopName.equals(value.trim())) return true;
    }
    return false;
  }

  static QueueOrderingPolicy parse(String key, String value) {
    for (QueueOrderingPolicy p : values()) {
      if (p.hadoopName.equals(value.trim())) return p;
    }
    String v = value.trim();
    if (v.equals("fifo") || v.equals("fair") || v.endsWith("OrderingPolicy")) {
      throw new SettingsException(
          key,
          "'" + value + "' orders the applications of a leaf queue;"
              + " a parent queue orders its queues with utilization or priority-utilization");
    }
    throw new SettingsException(
        key, "unknown ordering policy '" + value + "' for a parent queue (known: utilization, priority-utilization)");
  }
}
