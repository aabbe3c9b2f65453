package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LogAggregationSettingsTest {
  private static LogAggregationSettings with(String hocon) {
    return LogAggregationSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve());
  }

  @Test
  void offByDefaultIntoTmpLogsKeptForEver() {
    assertThat(with("")).isEqualTo(new LogAggregationSettings(false, Path.of("/tmp/logs"), Optional.empty(),
        Duration.ofSeconds(1), Duration.ofMinutes(1)));
  }

  @Test
  void everySettingIsRead() {
    assertThat(with("bobbin.nm.log-aggregation { enabled = true, remote-app-log-dir = /shared/logs, retain = 7d, "
        + "retain-check-interval = 1h, retry-interval = 5s }"))
        .isEqualTo(new LogAggregationSettings(true, Path.of("/shared/logs"), Optional.of(Duration.ofDays(7)),
            Duration.ofHours(1), Duration.ofSeconds(5)));
  }

  @Test
  void theCheckIntervalIsATenthOfTheRetentionUnlessSetAndAtLeastASecond() {
    assertThat(with("bobbin.nm.log-aggregation.retain = 10h").retainCheckInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(with("bobbin.nm.log-aggregation.retain = 2s").retainCheckInterval()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anEmptyDirectoryOrABadRetryIntervalIsRefusedByName() {
    assertThatThrownBy(() -> with("bobbin.nm.log-aggregation.remote-app-log-dir = \"\""))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.log-aggregation.remote-app-log-dir");
    assertThatThrownBy(() -> with("bobbin.nm.log-aggregation.retry-interval = 0s"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.log-aggregation.retry-interval");
  }

  @Test
  void cleanupSettingsCarryIt() {
    assertThat(NmCleanupSettings.from(ConfigFactory.parseString("bobbin.nm.log-aggregation.enabled = true")
        .withFallback(ConfigFactory.load()).resolve()).logAggregation().enabled()).isTrue();
  }
}
