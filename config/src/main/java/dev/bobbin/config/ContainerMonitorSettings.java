package dev.bobbin.config;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * How a NodeManager holds its containers to their memory: {@code bobbin.nm.container-monitor},
 * YARN's {@code yarn.nodemanager.container-monitor.interval-ms}, {@code pmem-check-enabled},
 * {@code vmem-check-enabled} and {@code vmem-pmem-ratio}.
 *
 * @param interval how often each container's process tree is measured
 * @param vmemPmemRatio a container's virtual memory limit, as a multiple of its allocated memory
 */
public record ContainerMonitorSettings(
    Duration interval, boolean pmemCheckEnabled, boolean vmemCheckEnabled, double vmemPmemRatio) {

  static final String KEY = "bobbin.nm.container-monitor";

  public static ContainerMonitorSettings from(Config root) {
    Config c = root.getConfig(KEY);
    Duration interval = c.getDuration("interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new SettingsException(KEY + ".interval", "must be positive, was " + c.getString("interval"));
    }
    double ratio = c.getDouble("vmem-pmem-ratio");
    if (!(ratio >= 1)) throw new SettingsException(KEY + ".vmem-pmem-ratio", "must be at least 1, was " + ratio);
    return new ContainerMonitorSettings(interval, c.getBoolean("pmem-check-enabled"),
        c.getBoolean("vmem-check-enabled"), ratio);
  }
}
