package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The NodeManager's directories and health checks, as {@code bobbin.nm} sets them. */
class NmHealthSettingsTest {
  @TempDir Path tmp;

  private static Config with(String hocon) {
    return ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve();
  }

  @Test
  void defaultsAreYarnsAndTheDirectoriesAreTheWorkDirectory() {
    NmSettings nm = NmSettings.from(with("bobbin.nm.work-dir = \"/srv/nm\""));
    assertThat(nm.localDirs()).containsExactly(Path.of("/srv/nm"));
    assertThat(nm.logDirs()).containsExactly(Path.of("/srv/nm"));
    NmHealthSettings h = nm.health();
    assertThat(h).isEqualTo(NmHealthSettings.DEFAULTS);
    assertThat(h.scriptPath()).isEmpty();
    // yarn.nodemanager.health-checker.interval-ms and its timeout, twice the interval.
    assertThat(h.scriptInterval()).isEqualTo(Duration.ofMinutes(10));
    assertThat(h.scriptTimeout()).isEqualTo(Duration.ofMinutes(20));
    // yarn.nodemanager.disk-health-checker.*
    assertThat(h.diskCheckInterval()).isEqualTo(Duration.ofMinutes(2));
    assertThat(h.minHealthyDisks()).isEqualTo(0.25);
    assertThat(h.maxDiskUtilizationPercent()).isEqualTo(90.0);
    assertThat(h.minFreeSpaceMb()).isZero();
  }

  @Test
  void everySettingIsRead() throws Exception {
    Path script = tmp.resolve("health.sh");
    Files.writeString(script, "#!/bin/sh\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    NmSettings nm = NmSettings.from(with("bobbin.nm {\n"
        + " local-dirs = [/d1/nm, /d2/nm]\n log-dirs = [/d1/logs]\n"
        + " health-checker { script-path = \"" + script + "\", script-opts = [-v, \"/d1 /d2\"], interval = 5s,"
        + " timeout = 2s }\n"
        + " disk-health-checker { enable = false, interval = 1s, min-healthy-disks = 0.5,"
        + " max-disk-utilization-per-disk-percentage = 95.5, min-free-space-per-disk-mb = 1024 }\n}"));
    assertThat(nm.localDirs()).containsExactly(Path.of("/d1/nm"), Path.of("/d2/nm"));
    assertThat(nm.logDirs()).containsExactly(Path.of("/d1/logs"));
    assertThat(nm.health()).isEqualTo(new NmHealthSettings(Optional.of(script), List.of("-v", "/d1 /d2"),
        Duration.ofSeconds(5), Duration.ofSeconds(2), false, Duration.ofSeconds(1), 0.5, 95.5, 1024));
  }

  @Test
  void whatCannotBeHonouredIsRefusedNamingItsKey() throws Exception {
    Path notExecutable = tmp.resolve("health.sh");
    Files.writeString(notExecutable, "#!/bin/sh\n");
    Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rw-------"));
    assertRefused("bobbin.nm.health-checker.script-path = \"" + notExecutable + "\"",
        "bobbin.nm.health-checker.script-path: " + notExecutable + " is not an executable file");
    assertRefused("bobbin.nm.health-checker.script-path = \"" + tmp.resolve("missing.sh") + "\"",
        "bobbin.nm.health-checker.script-path");
    assertRefused("bobbin.nm.health-checker.interval = 0s", "bobbin.nm.health-checker.interval: must be positive");
    assertRefused("bobbin.nm.health-checker.timeout = -1s", "bobbin.nm.health-checker.timeout: must be positive");
    assertRefused("bobbin.nm.disk-health-checker.interval = 0s", "bobbin.nm.disk-health-checker.interval");
    assertRefused("bobbin.nm.disk-health-checker.min-healthy-disks = 1.5",
        "bobbin.nm.disk-health-checker.min-healthy-disks: must be a fraction between 0 and 1");
    assertRefused("bobbin.nm.disk-health-checker.max-disk-utilization-per-disk-percentage = 101",
        "bobbin.nm.disk-health-checker.max-disk-utilization-per-disk-percentage");
    assertRefused("bobbin.nm.disk-health-checker.min-free-space-per-disk-mb = -1",
        "bobbin.nm.disk-health-checker.min-free-space-per-disk-mb");
    assertRefused("bobbin.nm.local-dirs = [\"\"]", "bobbin.nm.local-dirs");
  }

  private static void assertRefused(String hocon, String message) {
    assertThatThrownBy(() -> NmSettings.from(with(hocon))).as(hocon)
        .isInstanceOf(SettingsException.class).hasMessageContaining(message);
  }
}
