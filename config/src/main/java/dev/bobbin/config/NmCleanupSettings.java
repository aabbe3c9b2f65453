package dev.bobbin.config;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * How long an ended application's files stay on a NodeManager: {@code bobbin.nm.delete-debug-delay}
 * (YARN's {@code yarn.nodemanager.delete.debug-delay-sec}) for its local directories, {@code
 * bobbin.nm.log-retain} ({@code yarn.nodemanager.log.retain-seconds}) for its container logs; and
 * whether those logs are first copied to the cluster's log directory ({@link LogAggregationSettings}).
 */
public record NmCleanupSettings(Duration deleteDebugDelay, Duration logRetain, LogAggregationSettings logAggregation) {
  public static NmCleanupSettings from(Config root) {
    Config c = root.getConfig("bobbin.nm");
    return new NmCleanupSettings(notNegative(c, "delete-debug-delay"), notNegative(c, "log-retain"),
        LogAggregationSettings.from(root));
  }

  private static Duration notNegative(Config c, String key) {
    Duration d = c.getDuration(key);
    if (d.isNegative()) throw new SettingsException("bobbin.nm." + key, "must not be negative, was " + c.getString(key));
    return d;
  }
}
