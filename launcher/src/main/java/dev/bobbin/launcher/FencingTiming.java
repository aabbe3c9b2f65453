package dev.bobbin.launcher;

import com.typesafe.config.Config;
import dev.bobbin.config.SettingsException;
import java.time.Duration;

/**
 * The one timing rule journal fencing relies on (docs/fencing.md): a lease outlives its last
 * renewal by more than the cluster needs to notice a member is gone and down it, so a member never
 * loses its leases to a pause the cluster does not down it for, and no lease lapses before its
 * owner has been downed. Checked when a member starts, against the settings it runs with.
 */
final class FencingTiming {
  static final String TTL_KEY = "bobbin.persistence.fencing.lease.heartbeat-timeout";
  /** The resolver decides once a second. */
  private static final Duration RESOLVER_TICK = Duration.ofSeconds(1);
  /** Pekko's phi threshold of 8 sits about this many standard deviations past the mean interval. */
  private static final long PHI_DEVIATIONS = 6;

  private FencingTiming() {}

  /** The longest time from a member's last heartbeat until the others have downed it. */
  static Duration detectionPlusDowning(Config c) {
    String fd = "pekko.cluster.failure-detector.";
    Duration detection = c.getDuration(fd + "heartbeat-interval")
        .plus(c.getDuration(fd + "acceptable-heartbeat-pause"))
        .plus(c.getDuration(fd + "min-std-deviation").multipliedBy(PHI_DEVIATIONS));
    String sbr = "pekko.cluster.split-brain-resolver.";
    Duration stableAfter = c.getDuration(sbr + "stable-after");
    Duration downing = stableAfter.plus(RESOLVER_TICK).plus(unstableMargin(c, stableAfter));
    return detection.plus(downing);
  }

  /** The resolver's down-all-when-unstable wait beyond stable-after, when on. */
  private static Duration unstableMargin(Config c, Duration stableAfter) {
    String key = "pekko.cluster.split-brain-resolver.down-all-when-unstable";
    String value = c.getString(key);
    if ("off".equalsIgnoreCase(value) || "false".equalsIgnoreCase(value)) return Duration.ZERO;
    if ("on".equalsIgnoreCase(value) || "true".equalsIgnoreCase(value)) {
      Duration threeQuarters = stableAfter.multipliedBy(3).dividedBy(4);
      return threeQuarters.compareTo(Duration.ofSeconds(4)) > 0 ? threeQuarters : Duration.ofSeconds(4);
    }
    return c.getDuration(key);
  }

  static void check(Config c) {
    if (!c.getBoolean("bobbin.persistence.fencing.enabled")) return;
    Duration ttl = c.getDuration(TTL_KEY);
    Duration needed = detectionPlusDowning(c);
    if (ttl.compareTo(needed) <= 0) {
      throw new SettingsException(TTL_KEY, "must exceed failure detection plus downing with this member's "
          + "pekko.cluster settings (" + needed.toMillis() + " ms: failure-detector heartbeat-interval + "
          + "acceptable-heartbeat-pause + 6 x min-std-deviation, split-brain-resolver stable-after + 1 s"
          + " + down-all-when-unstable), was " + ttl.toMillis() + " ms");
    }
  }
}
