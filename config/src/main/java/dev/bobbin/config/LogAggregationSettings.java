package dev.bobbin.config;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Whether NodeManagers copy an ended application's container logs to a directory every node and
 * every reader can reach, and how long they stay there: {@code bobbin.nm.log-aggregation}, YARN's
 * {@code yarn.log-aggregation-enable}, {@code yarn.nodemanager.remote-app-log-dir},
 * {@code yarn.log-aggregation.retain-seconds} and {@code retain-check-interval-seconds}.
 *
 * @param retain how long aggregated logs are kept; empty keeps them for ever
 * @param retainCheckInterval how often aggregated logs past {@code retain} are looked for
 * @param retryInterval how long a node waits before copying again the logs it failed to copy
 */
public record LogAggregationSettings(
    boolean enabled, Path remoteAppLogDir, Optional<Duration> retain, Duration retainCheckInterval,
    Duration retryInterval) {

  static final String KEY = "bobbin.nm.log-aggregation";
  private static final Duration MIN_CHECK_INTERVAL = Duration.ofSeconds(1);

  public static LogAggregationSettings from(Config root) {
    Config c = root.getConfig(KEY);
    String dir = c.getString("remote-app-log-dir").strip();
    if (dir.isEmpty()) throw new SettingsException(KEY + ".remote-app-log-dir", "must name a directory");
    // As YARN's retain-seconds: any negative value keeps aggregated logs for ever.
    Duration retainFor = c.getDuration("retain");
    Optional<Duration> retain = retainFor.isNegative() ? Optional.empty() : Optional.of(retainFor);
    Duration check = c.getDuration("retain-check-interval");
    if (check.isZero() || check.isNegative()) {
      // YARN's default: a tenth of the retention, here at least a second.
      Duration tenth = retain.map(r -> r.dividedBy(10)).orElse(MIN_CHECK_INTERVAL);
      check = tenth.compareTo(MIN_CHECK_INTERVAL) < 0 ? MIN_CHECK_INTERVAL : tenth;
    }
    Duration retry = c.getDuration("retry-interval");
    if (retry.isZero() || retry.isNegative()) {
      throw new SettingsException(KEY + ".retry-interval", "must be positive, was " + c.getString("retry-interval"));
    }
    return new LogAggregationSettings(c.getBoolean("enabled"), Path.of(dir), retain, check, retry);
  }
}
