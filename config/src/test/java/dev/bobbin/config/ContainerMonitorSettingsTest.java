package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ContainerMonitorSettingsTest {
  private static ContainerMonitorSettings with(String hocon) {
    return ContainerMonitorSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve());
  }

  @Test
  void defaultsCheckPhysicalMemoryEveryThreeSecondsAndNotVirtualMemory() {
    assertThat(with("")).isEqualTo(new ContainerMonitorSettings(Duration.ofSeconds(3), true, false, 2.1));
  }

  @Test
  void everySettingIsRead() {
    assertThat(with("bobbin.nm.container-monitor { interval = 500ms, pmem-check-enabled = false, "
        + "vmem-check-enabled = true, vmem-pmem-ratio = 3 }"))
        .isEqualTo(new ContainerMonitorSettings(Duration.ofMillis(500), false, true, 3));
  }

  @Test
  void aBadIntervalOrRatioIsRefusedByName() {
    assertThatThrownBy(() -> with("bobbin.nm.container-monitor.interval = 0s"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.container-monitor.interval");
    assertThatThrownBy(() -> with("bobbin.nm.container-monitor.vmem-pmem-ratio = 0.5"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.container-monitor.vmem-pmem-ratio");
  }
}
