package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

class AuxServiceSettingsTest {
  private static AuxServiceSettings read(String hocon) {
    return AuxServiceSettings.from(ConfigFactory.parseString(hocon).withFallback(ConfigFactory.defaultReference()));
  }

  @Test
  void noServicesByDefault() {
    assertThat(read("").services()).isEmpty();
  }

  @Test
  void readsEachListedServiceWithItsClassAndSettings() {
    var settings = read("""
        bobbin.nm.aux-services = [files, mapreduce_shuffle]
        bobbin.nm.aux-service.files.class = "a.Files"
        bobbin.nm.aux-service.mapreduce_shuffle { class = " b.Shuffle ", port = 13562 }
        """);
    assertThat(settings.services()).extracting(AuxServiceSettings.Service::name)
        .containsExactly("files", "mapreduce_shuffle");
    var shuffle = settings.services().get(1);
    assertThat(shuffle.className()).isEqualTo("b.Shuffle");
    assertThat(shuffle.config().getInt("port")).isEqualTo(13562);
    assertThat(shuffle.classKey()).isEqualTo("bobbin.nm.aux-service.mapreduce_shuffle.class");
  }

  @Test
  void refusesWhatCannotBeRunNamingTheKey() {
    assertRefused("bobbin.nm.aux-services = [files, files]\nbobbin.nm.aux-service.files.class = a.B",
        "bobbin.nm.aux-services", "names 'files' twice");
    assertRefused("bobbin.nm.aux-services = [\"9lives\"]", "bobbin.nm.aux-services", "'9lives' is not a service name");
    assertRefused("bobbin.nm.aux-services = [\"my-files\"]", "bobbin.nm.aux-services", "'my-files' is not a service");
    assertRefused("bobbin.nm.aux-services = [files]", "bobbin.nm.aux-service.files.class", "missing");
    assertRefused("bobbin.nm.aux-services = [files]\nbobbin.nm.aux-service.files.port = 1",
        "bobbin.nm.aux-service.files.class", "missing");
    assertRefused("bobbin.nm.aux-service.files.class = a.B", "bobbin.nm.aux-service.files",
        "configures a service that bobbin.nm.aux-services does not list");
    assertRefused("bobbin.nm.aux-services = files", "bobbin.nm.aux-services", "must be a list");
  }

  private static void assertRefused(String hocon, String key, String problem) {
    assertThatThrownBy(() -> read(hocon)).isInstanceOf(SettingsException.class)
        .hasMessageContaining(problem)
        .satisfies(e -> assertThat(((SettingsException) e).key()).isEqualTo(key));
  }
}
