package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A NodeManager's work directory: never the working directory unless asked for. */
class DataRootTest {
  private static final String HOME = "/home/alice";

  private static Config with(String hocon) {
    return ConfigFactory.parseString(hocon).withFallback(ConfigFactory.load()).resolve();
  }

  @Test
  void theDataRootIsTheOneGivenElseXdgStateHomeElseTheUsersLocalState() {
    assertThat(DataRoot.resolve("/srv/bobbin", Map.of("XDG_STATE_HOME", "/xdg"), HOME)).isEqualTo(Path.of("/srv/bobbin"));
    assertThat(DataRoot.resolve("", Map.of("XDG_STATE_HOME", "/xdg"), HOME)).isEqualTo(Path.of("/xdg/bobbin"));
    assertThat(DataRoot.resolve("", Map.of(), HOME)).isEqualTo(Path.of("/home/alice/.local/state/bobbin"));
    assertThat(DataRoot.resolve(null, Map.of("XDG_STATE_HOME", ""), HOME))
        .isEqualTo(Path.of("/home/alice/.local/state/bobbin"));
    assertThat(DataRoot.resolve("", Map.of("XDG_STATE_HOME", "relative/state"), HOME))
        .as("the XDG specification has a relative path ignored")
        .isEqualTo(Path.of("/home/alice/.local/state/bobbin"));
  }

  @Test
  void aNodeManagersWorkDirectoryIsNamedAfterItsPortUnderTheDataRoot() {
    Map<String, String> env = Map.of("XDG_STATE_HOME", "/xdg");

    assertThat(NmSettings.from(with(""), env, HOME).workDir()).isEqualTo(Path.of("/xdg/bobbin/nm-8042"));
    assertThat(NmSettings.from(with("bobbin.nm.http-port = 8043"), env, HOME).workDir())
        .isEqualTo(Path.of("/xdg/bobbin/nm-8043"));
    assertThat(NmSettings.from(with("bobbin.nm.data-dir = /srv/bobbin"), env, HOME).workDir())
        .isEqualTo(Path.of("/srv/bobbin/nm-8042"));
    assertThat(NmSettings.from(with(""), Map.of(), HOME).workDir())
        .isEqualTo(Path.of("/home/alice/.local/state/bobbin/nm-8042"));
  }

  @Test
  void aWorkDirectoryGivenIsUsedAsItIs() {
    assertThat(NmSettings.from(with("bobbin.nm.work-dir = /tmp/nm1\nbobbin.nm.data-dir = /srv/bobbin"),
        Map.of("XDG_STATE_HOME", "/xdg"), HOME).workDir()).isEqualTo(Path.of("/tmp/nm1"));
  }
}
