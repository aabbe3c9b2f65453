package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NmRecoverySettingsTest {
  private static NmRecoverySettings with(String hocon) {
    return NmRecoverySettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve());
  }

  @Test
  void offByDefaultAsInYarn() {
    assertThat(with("")).isEqualTo(NmRecoverySettings.DISABLED);
    assertThat(with("").keepsContainersOnStop()).isFalse();
  }

  @Test
  void everySettingIsRead() {
    NmRecoverySettings s = with("bobbin.nm.recovery { enabled = true, dir = /var/nm-state, supervised = true, "
        + "process-check-interval = 200ms }");
    assertThat(s).isEqualTo(new NmRecoverySettings(true, Optional.of(Path.of("/var/nm-state")), true,
        Duration.ofMillis(200)));
    assertThat(s.keepsContainersOnStop()).isTrue();
  }

  @Test
  void anEphemeralPortIsRefusedWithRecoveryForARestartCouldNotFindItsNodeAgain() {
    assertThatThrownBy(() -> with("bobbin.nm.recovery.enabled = true").checkPort(0))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.nm.http-port:");
    with("bobbin.nm.recovery.enabled = true").checkPort(8042);
    NmRecoverySettings.DISABLED.checkPort(0);
  }

  @Test
  void supervisedWithoutRecoveryAndABadIntervalAreRefusedByName() {
    assertThatThrownBy(() -> with("bobbin.nm.recovery.supervised = true"))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.nm.recovery.supervised:");
    assertThatThrownBy(() -> with("bobbin.nm.recovery.process-check-interval = 0s"))
        .isInstanceOf(SettingsException.class).hasMessageStartingWith("bobbin.nm.recovery.process-check-interval:");
  }
}
