package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class NmCgroupsSettingsTest {
  private static NmCgroupsSettings with(String hocon) {
    return NmCgroupsSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve());
  }

  @Test
  void byDefaultContainersGetNoCgroupsAndMemoryWouldBeEnforced() {
    assertThat(with("")).isEqualTo(new NmCgroupsSettings(false, "bobbin", true)).isEqualTo(NmCgroupsSettings.DISABLED);
  }

  @Test
  void everySettingIsReadAndYarnsAbsoluteHierarchyIsTakenBelowTheMount() {
    assertThat(with("bobbin.nm.cgroups { enabled = true, hierarchy = \"/hadoop-yarn/nm/\" }\n"
        + "bobbin.nm.resource.memory.enforced = false"))
        .isEqualTo(new NmCgroupsSettings(true, "hadoop-yarn/nm", false));
  }

  @Test
  void aHierarchyThatLeavesTheMountOrIsEmptyIsRefusedByName() {
    for (String bad : new String[] {"\"\"", "\"/\"", "\"../etc\"", "\"a/./b\""}) {
      assertThatThrownBy(() -> with("bobbin.nm.cgroups.hierarchy = " + bad))
          .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.cgroups.hierarchy");
    }
  }
}
