package dev.bobbin.config;

import java.util.Locale;

/** Which policy set the scheduler runs. Hadoop's scheduler class names are accepted too. */
public enum SchedulerPolicy {
  FIFO,
  FAIR,
  CAPACITY;

  public static SchedulerPolicy parse(String key, String value) {
    String v = value.trim();
    if (v.endsWith(".FifoScheduler")) return FIFO;
    if (v.endsWith(".FairScheduler")) return FAIR;
    if (v.endsWith(".CapacityScheduler")) return CAPACITY;
    try {
      return valueOf(v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "unknown scheduler policy '" + value + "' (known: fifo, fair, capacity)");
    }
  }
}
