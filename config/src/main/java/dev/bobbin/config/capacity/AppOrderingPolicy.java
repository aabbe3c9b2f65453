package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;
import java.util.Locale;

/**
 * How a leaf queue orders its applications ({@code ordering-policy}): by priority then submission
 * (fifo, the default), or by how little each application uses (fair). Hadoop's class names are
 * accepted too.
 */
public enum AppOrderingPolicy {
  FIFO("fifo", "FifoOrderingPolicy"),
  FAIR("fair", "FairOrderingPolicy");

  private final String hadoopName;
  private final String className;

  AppOrderingPolicy(String hadoopName, String className) {
    this.hadoopName = hadoopName;
    this.className = className;
  }

  public String hadoopName() {
    return hadoopName;
  }

  static AppOrderingPolicy parse(String key, String value) {
    String v = value.trim();
    for (AppOrderingPolicy p : values()) {
      if (v.equalsIgnoreCase(p.hadoopName) || v.equals(p.className) || v.endsWith("." + p.className)) return p;
    }
    String lower = v.toLowerCase(Locale.ROOT);
    if (lower.startsWith("fifo-") || lower.endsWith("orderingpolicywithexclusivepartitions")
        || lower.endsWith("orderingpolicyforpendingapps")) {
      throw new SettingsException(key, "ordering policy '" + value + "' is not supported yet (supported: fifo, fair)");
    }
    if (QueueOrderingPolicy.isName(v)) {
      throw new SettingsException(
          key, "'" + value + "' orders the queues of a parent queue; a leaf queue orders its applications with fifo or fair");
    }
    throw new SettingsException(key, "unknown ordering policy '" + value + "' for a leaf queue (known: fifo, fair)");
  }
}
