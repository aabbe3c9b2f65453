package dev.bobbin.config.fair;

import dev.bobbin.config.SettingsException;

/**
 * How a Fair Scheduler queue shares among its children: fair share on memory, dominant resource
 * fairness, or first in first out (leaf queues only). Hadoop's policy class names are accepted.
 */
public enum QueuePolicy {
  FAIR("fair", "FairSharePolicy"),
  DRF("drf", "DominantResourceFairnessPolicy"),
  FIFO("fifo", "FifoPolicy");

  private final String hadoopName;
  private final String className;

  QueuePolicy(String hadoopName, String className) {
    this.hadoopName = hadoopName;
    this.className = className;
  }

  /** The name the allocation file and Hadoop's REST API use: fair, drf or fifo. */
  public String hadoopName() {
    return hadoopName;
  }

  public static QueuePolicy parse(String key, String value) {
    String v = value.trim();
    for (QueuePolicy p : values()) {
      if (v.equalsIgnoreCase(p.hadoopName) || v.equals(p.className) || v.endsWith("." + p.className)) {
        return p;
      }
    }
    throw new SettingsException(
        key, label(key) + " must be fair, drf or fifo (or Hadoop's policy class name), was '" + value + "'");
  }

  private static String label(String key) {
    return key.substring(Math.max(key.lastIndexOf('/'), key.lastIndexOf('.')) + 1);
  }
}
