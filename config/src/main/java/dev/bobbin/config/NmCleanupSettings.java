package dev.bobbin.config;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * How long an ended application's files stay on a NodeManager: {@code bobbin.nm.delete-debug-delay}
 * (YARN's {@code yarn.nodemanager.delete.debug-delay-sec}) for its local directories, {@code
 * bobbin.nm.log-retain} ({@code yarn.nodemanager.log.retain-seconds}) for its container logs; and
 * whether those logs are first copied to the cluster's log directory ({@link LogAggregationSettings});
 * and how many MB of PUBLIC and PRIVATE localized resources the node keeps before deleting those
 * no container uses, least recently used first: {@code bobbin.nm.localizer.cache.target-size-mb}
 * (YARN's {@code yarn.nodemanager.localizer.cache.target-size-mb}), with at most {@code
 * bobbin.nm.local-cache.max-files-per-directory} entries in one directory of those caches.
 */
public record NmCleanupSettings(Duration deleteDebugDelay, Duration logRetain, LogAggregationSettings logAggregation,
    long localizerCacheTargetMb, int localCacheMaxFilesPerDirectory) {
  static final String MAX_FILES_KEY = "bobbin.nm.local-cache.max-files-per-directory";

  public NmCleanupSettings(Duration deleteDebugDelay, Duration logRetain, LogAggregationSettings logAggregation) {
    this(deleteDebugDelay, logRetain, logAggregation, 10240, 8192);
  }

  public static NmCleanupSettings from(Config root) {
    Config c = root.getConfig("bobbin.nm");
    return new NmCleanupSettings(notNegative(c, "delete-debug-delay"), notNegative(c, "log-retain"),
        LogAggregationSettings.from(root), cacheTargetMb(c), maxFilesPerDirectory(c));
  }

  /** Each directory holds up to 36 sub-directories besides the copies, as in YARN. */
  private static int maxFilesPerDirectory(Config c) {
    int n = c.getInt("local-cache.max-files-per-directory");
    if (n <= 36) throw new SettingsException(MAX_FILES_KEY, "must be more than 36, was " + n);
    return n;
  }

  private static long cacheTargetMb(Config c) {
    long mb = c.getLong("localizer.cache.target-size-mb");
    if (mb < 0) {
      throw new SettingsException("bobbin.nm.localizer.cache.target-size-mb", "must not be negative, was " + mb);
    }
    return mb;
  }

  private static Duration notNegative(Config c, String key) {
    Duration d = c.getDuration(key);
    if (d.isNegative()) throw new SettingsException("bobbin.nm." + key, "must not be negative, was " + c.getString(key));
    return d;
  }
}
