package dev.bobbin.config;

import com.typesafe.config.Config;
import java.time.Duration;
import java.util.List;

/** The {@code bobbin.scheduler} section. Memory in MB. */
public record SchedulerSettings(
    SchedulerPolicy policy,
    List<String> queues,
    long minimumAllocationMb,
    int minimumAllocationVcores,
    long maximumAllocationMb,
    int maximumAllocationVcores,
    Duration allocationInterval,
    int maxAllocationsInFlight,
    double maxAmShare) {

  public static SchedulerSettings from(Config root) {
    Config c = root.getConfig("bobbin.scheduler");
    List<String> queues = c.getStringList("queues");
    if (queues.isEmpty()) {
      throw new SettingsException("bobbin.scheduler.queues", "must name at least one queue");
    }
    for (String q : queues) {
      if (q.isBlank() || q.startsWith(".") || q.endsWith(".")) {
        throw new SettingsException("bobbin.scheduler.queues", "invalid queue name '" + q + "'");
      }
    }
    SchedulerSettings s =
        new SchedulerSettings(
            SchedulerPolicy.parse("bobbin.scheduler.policy", c.getString("policy")),
            List.copyOf(queues),
            Settings.atLeast(c, "minimum-allocation.memory", 0),
            Settings.atLeast(c, "minimum-allocation.vcores", 0),
            Settings.atLeast(c, "maximum-allocation.memory", 1),
            Settings.atLeast(c, "maximum-allocation.vcores", 1),
            c.getDuration("allocation-interval"),
            Settings.atLeast(c, "max-allocations-in-flight", 1),
            c.getDouble("max-am-share"));
    if (!(s.maxAmShare > 0 && s.maxAmShare <= 1)) {
      throw new SettingsException("bobbin.scheduler.max-am-share", "must be above 0 and at most 1, was " + s.maxAmShare);
    }
    if (s.minimumAllocationMb > s.maximumAllocationMb) {
      throw new SettingsException(
          "bobbin.scheduler.minimum-allocation.memory", "is above maximum-allocation.memory");
    }
    if (s.minimumAllocationVcores > s.maximumAllocationVcores) {
      throw new SettingsException(
          "bobbin.scheduler.minimum-allocation.vcores", "is above maximum-allocation.vcores");
    }
    return s;
  }
}
