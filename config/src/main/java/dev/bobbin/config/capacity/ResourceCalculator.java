package dev.bobbin.config.capacity;

import dev.bobbin.config.SettingsException;

/**
 * How the scheduler compares resources ({@code yarn.scheduler.capacity.resource-calculator}): by
 * memory alone (Hadoop's DefaultResourceCalculator, the default) or by each amount's dominant share
 * of the cluster (DominantResourceCalculator). Hadoop's class names, with or without their package,
 * are what the key holds.
 */
public enum ResourceCalculator {
  DEFAULT("DefaultResourceCalculator"),
  DOMINANT("DominantResourceCalculator");

  private static final String PACKAGE = "org.apache.hadoop.yarn.util.resource.";
  private final String className;

  ResourceCalculator(String className) {
    this.className = className;
  }

  /** Hadoop's fully qualified class name. */
  public String hadoopClassName() {
    return PACKAGE + className;
  }

  static ResourceCalculator parse(String key, String value) {
    String v = value.trim();
    for (ResourceCalculator c : values()) {
      if (v.equals(c.className) || v.equals(PACKAGE + c.className) || v.equalsIgnoreCase(c.name())) return c;
    }
    throw new SettingsException(
        key, "unknown resource calculator '" + value + "' (known: " + PACKAGE + "DefaultResourceCalculator, "
            + PACKAGE + "DominantResourceCalculator)");
  }
}
