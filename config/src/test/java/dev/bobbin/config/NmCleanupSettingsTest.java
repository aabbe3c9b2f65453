package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class NmCleanupSettingsTest {
  private static NmCleanupSettings with(String setting) {
    return NmCleanupSettings.from(ConfigFactory.parseString(setting).withFallback(ConfigFactory.load()).resolve());
  }

  @Test
  void theCachesKeepYarnsEntriesPerDirectoryUnlessTold() {
    assertThat(with("").localCacheMaxFilesPerDirectory()).isEqualTo(8192);
    assertThat(with("bobbin.nm.local-cache.max-files-per-directory = 100").localCacheMaxFilesPerDirectory())
        .isEqualTo(100);
  }

  @Test
  void aLimitWithNoRoomBesideTheSubdirectoriesIsRefused() {
    assertThatThrownBy(() -> with("bobbin.nm.local-cache.max-files-per-directory = 36"))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.nm.local-cache.max-files-per-directory")
        .hasMessageContaining("must be more than 36, was 36");
  }
}
