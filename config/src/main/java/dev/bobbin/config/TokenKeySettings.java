package dev.bobbin.config;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * How the RM rolls the keys that sign tokens, as YARN's secret managers do: a new container-token
 * key every {@code containerKeyRollingInterval}, handed to the NodeManagers {@code
 * containerKeyActivationDelay} before it signs anything; a new AM-token key every {@code
 * amKeyRollingInterval}.
 */
public record TokenKeySettings(
    Duration containerKeyRollingInterval, Duration containerKeyActivationDelay, Duration amKeyRollingInterval) {

  static final String CONTAINER_INTERVAL = "bobbin.rm.container-tokens.master-key-rolling-interval";
  static final String CONTAINER_DELAY = "bobbin.rm.container-tokens.master-key-activation-delay";
  static final String AM_INTERVAL = "bobbin.rm.am-rm-tokens.master-key-rolling-interval";

  /**
   * @param rm the {@code bobbin.rm} section
   * @param nmExpiry a silent NodeManager is lost after it: YARN activates a new key 1.5 times that
   *     after handing it out, so that every NodeManager still alive has heard of it
   */
  static TokenKeySettings from(Config rm, Duration nmExpiry) {
    Duration containerInterval = positive(rm, "container-tokens.master-key-rolling-interval", CONTAINER_INTERVAL);
    Duration delay = rm.getIsNull("container-tokens.master-key-activation-delay")
        ? nmExpiry.multipliedBy(3).dividedBy(2)
        : positive(rm, "container-tokens.master-key-activation-delay", CONTAINER_DELAY);
    if (containerInterval.compareTo(delay.multipliedBy(2)) <= 0) {
      throw new SettingsException(CONTAINER_INTERVAL, "must be more than twice " + CONTAINER_DELAY + " ("
          + delay + (rm.getIsNull("container-tokens.master-key-activation-delay")
              ? ", 1.5 times bobbin.rm.nm-expiry" : "") + "), was " + containerInterval);
    }
    return new TokenKeySettings(containerInterval, delay, positive(rm, "am-rm-tokens.master-key-rolling-interval",
        AM_INTERVAL));
  }

  private static Duration positive(Config rm, String path, String key) {
    Duration d;
    try {
      d = rm.getDuration(path);
    } catch (com.typesafe.config.ConfigException e) {
      throw new SettingsException(key, e.getMessage());
    }
    if (d.toMillis() <= 0) throw new SettingsException(key, "must be positive, was " + d);
    return d;
  }
}
