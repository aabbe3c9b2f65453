package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.ContainerExecutorSettings.Kind;
import org.junit.jupiter.api.Test;

class ContainerExecutorSettingsTest {
  private static ContainerExecutorSettings with(String hocon) {
    Config c = ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve();
    return ContainerExecutorSettings.from(c);
  }

  @Test
  void defaultsAreYarnsContainerExecutorCfg() {
    ContainerExecutorSettings s = with("");
    assertThat(s.kind()).isEqualTo(Kind.DEFAULT);
    assertThat(s.bannedUsers()).containsExactlyInAnyOrder("root", "yarn", "hdfs", "mapred", "bin");
    assertThat(s.minUserId()).isEqualTo(1000);
    assertThat(s.allowedSystemUsers()).isEmpty();
  }

  @Test
  void linuxAndItsRulesAreRead() {
    ContainerExecutorSettings s = with("bobbin.nm.container-executor = linux\n"
        + "bobbin.nm.linux-container-executor { banned-users = [root, eve], min-user-id = 500,"
        + " allowed-system-users = [daemon, www-data] }");
    assertThat(s.kind()).isEqualTo(Kind.LINUX);
    assertThat(s.bannedUsers()).containsExactlyInAnyOrder("root", "eve");
    assertThat(s.minUserId()).isEqualTo(500);
    assertThat(s.allowedSystemUsers()).containsExactlyInAnyOrder("daemon", "www-data");
    assertThat(s.withKind(Kind.DEFAULT)).isEqualTo(new ContainerExecutorSettings(
        Kind.DEFAULT, s.bannedUsers(), 500, s.allowedSystemUsers()));
  }

  @Test
  void hadoopsExecutorClassNamesAreAccepted() {
    assertThat(with("bobbin.nm.container-executor = "
        + "\"org.apache.hadoop.yarn.server.nodemanager.LinuxContainerExecutor\"").kind()).isEqualTo(Kind.LINUX);
    assertThat(with("bobbin.nm.container-executor = "
        + "\"org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor\"").kind()).isEqualTo(Kind.DEFAULT);
  }

  @Test
  void badValuesNameTheirKey() {
    assertThatThrownBy(() -> with("bobbin.nm.container-executor = docker"))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("bobbin.nm.container-executor").hasMessageContaining("docker");
    assertThatThrownBy(() -> with("bobbin.nm.linux-container-executor.min-user-id = -1"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("min-user-id");
    assertThatThrownBy(() -> with("bobbin.nm.linux-container-executor.banned-users = [root, \" \"]"))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.nm.linux-container-executor.banned-users");
  }
}
