package dev.bobbin.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code bobbin.rm} section and the data directory of an RM member. {@code
 * containerAllocationExpiry} is how long a container token lives, and so how long an allocation
 * may wait for its start.
 */
public record RmSettings(
    Path dataDir,
    String hostname,
    int httpPort,
    Duration nmHeartbeatInterval,
    Duration nmExpiry,
    Duration amExpiry,
    int amMaxAttempts,
    Duration askTimeout,
    int amLauncherThreads,
    int snapshotEvery,
    Duration recoverySchedulingWait,
    double recoveryMinNodeShare,
    Duration checkpointInterval,
    int checkpointMinEvents,
    int maxCompletedApplications,
    Duration containerAllocationExpiry,
    TokenKeySettings tokenKeys,
    NodeTrustSettings nodeTrust) {

  public static RmSettings from(Config root) {
    Config c = root.getConfig("bobbin.rm");
    if (c.hasPathOrNull("token-secret")) {
      throw new SettingsException("bobbin.rm.token-secret", "is not accepted: the cluster makes the keys that sign"
          + " tokens itself, one set per purpose, rolls them and keeps them in the journal every member shares;"
          + " remove the setting");
    }
    Path dataDir = Path.of(root.getString("bobbin.data-dir"));
    return new RmSettings(
        dataDir,
        c.getString("hostname"),
        Settings.port(c, "http-port"),
        c.getDuration("nm-heartbeat-interval"),
        c.getDuration("nm-expiry"),
        c.getDuration("am-expiry"),
        Settings.atLeast(c, "am-max-attempts", 1),
        c.getDuration("ask-timeout"),
        Settings.atLeast(c, "am-launcher-threads", 1),
        Settings.atLeast(c, "snapshot-every", 1),
        c.getDuration("recovery.scheduling-wait"),
        share(c, "recovery.min-node-share"),
        positive(c, "recovery.checkpoint-interval"),
        Settings.atLeast(c, "recovery.checkpoint-min-events", 1),
        notNegative(c, "max-completed-applications"),
        positive(c, "container-allocation-expiry"),
        TokenKeySettings.from(c, c.getDuration("nm-expiry")),
        NodeTrustSettings.from(c, dataDir));
  }

  private static int notNegative(Config c, String key) {
    int v;
    try {
      v = c.getInt(key);
    } catch (ConfigException e) {
      throw new SettingsException("bobbin.rm." + key, e.getMessage());
    }
    if (v < 0) throw new SettingsException("bobbin.rm." + key, "must be 0 or more, was " + v);
    return v;
  }

  private static Duration positive(Config c, String key) {
    Duration d = c.getDuration(key);
    if (d.isZero() || d.isNegative()) throw new SettingsException("bobbin.rm." + key, "must be positive, was " + d);
    return d;
  }

  private static double share(Config c, String key) {
    double v = c.getDouble(key);
    if (v < 0 || v > 1) throw new SettingsException("bobbin.rm." + key, "must be between 0 and 1, was " + v);
    return v;
  }
}
