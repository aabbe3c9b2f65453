package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NmCommandTest {
  private static NmSettings settings(Map<String, Object> nm) {
    return NmSettings.from(ConfigFactory.parseMap(nm).withFallback(ConfigFactory.load()));
  }

  @Test
  void withoutTheNodeCredentialItDoesNotStartAndSaysWhereTheRmKeepsIt(@TempDir Path dir) {
    MainTest.Result none = MainTest.run("nm", "--work-dir", dir.toString());
    assertThat(none.exitCode()).as(none.err()).isEqualTo(78);
    assertThat(none.err()).contains("bobbin.nm.node-credential-file", "node-credential", "--node-credential FILE");

    MainTest.Result missing = MainTest.run("nm", "--work-dir", dir.toString(), "--node-credential", dir.resolve("nope").toString());
    assertThat(missing.exitCode()).as(missing.err()).isEqualTo(78);
    assertThat(missing.err()).contains("cannot read the node credential " + dir.resolve("nope"));
  }

  @Test
  void anAuxiliaryServiceThatCannotBeLoadedStopsTheStartNamingItsKey(@TempDir Path dir) throws Exception {
    Path credential = dir.resolve("node-credential");
    dev.bobbin.config.NodeCredential.readOrCreate(credential, "test");
    Path conf = java.nio.file.Files.writeString(dir.resolve("nm.conf"), """
        bobbin.nm.aux-services = [files]
        bobbin.nm.aux-service.files.class = "com.example.MissingService"
        """);
    MainTest.Result r = MainTest.run("nm", "--work-dir", dir.resolve("work").toString(), "--http-port", "0",
        "--node-credential", credential.toString(), "--config", conf.toString());
    assertThat(r.exitCode()).as(r.err()).isEqualTo(78);
    assertThat(r.err()).contains("bobbin.nm.aux-service.files.class: cannot load class com.example.MissingService");
  }

  @Test
  void withoutRmItSaysWhichRmItReportsTo() {
    NmSettings settings = settings(Map.of("bobbin.nm.work-dir", "/tmp/nm1"));

    assertThat(NmCommand.startingLines(settings, false, null)).containsExactly(
        "NodeManager: no --rm given; reporting to http://127.0.0.1:8088 (bobbin.nm.rm-addresses, its default)",
        "NodeManager: work directory /tmp/nm1");
    assertThat(NmCommand.startingLines(settings, false, Path.of("nm.conf")).get(0))
        .endsWith("(bobbin.nm.rm-addresses, from nm.conf)");
  }

  @Test
  void withRmItSaysOnlyWhereItWorks() {
    NmSettings settings = settings(Map.of("bobbin.nm.rm-addresses", java.util.List.of("http://rm1:8088"),
        "bobbin.nm.data-dir", "/srv/bobbin", "bobbin.nm.http-port", 8043));

    assertThat(NmCommand.startingLines(settings, true, null))
        .containsExactly("NodeManager: work directory /srv/bobbin/nm-8043");
  }
}
