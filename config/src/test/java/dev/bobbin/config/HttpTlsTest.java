package dev.bobbin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HttpTlsTest {
  @TempDir Path dir;

  private static HttpTls tls(Map<String, Object> settings) {
    return HttpTls.from(ConfigFactory.parseMap(settings).withFallback(ConfigFactory.defaultReference()));
  }

  @Test
  void byDefaultServersSpeakPlainHttpAndClientsTrustTheJvm() {
    HttpTls tls = tls(Map.of());
    assertThat(tls.policy()).isEqualTo(HttpPolicy.HTTP_ONLY);
    assertThat(tls.trustStore()).isNull();
    assertThat(tls.httpsOnly()).isFalse();
    assertThat(tls.requireServerKeys()).isSameAs(tls);
  }

  @Test
  void policiesTakeYarnsNamesInAnyCase() {
    assertThat(tls(Map.of("bobbin.http.tls.policy", "https_only")).httpsOnly()).isTrue();
    assertThat(tls(Map.of("bobbin.http.tls.policy", "HTTP_AND_HTTPS")).policy().servesHttps()).isTrue();
    assertThatThrownBy(() -> tls(Map.of("bobbin.http.tls.policy", "TLS")))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.tls.policy")
        .hasMessageContaining("HTTPS_ONLY");
  }

  @Test
  void whatCannotWorkIsRefusedNamingTheKey() throws Exception {
    Path store = Files.writeString(dir.resolve("store.p12"), "x");
    assertThatThrownBy(() -> tls(Map.of("bobbin.http.tls.policy", "HTTPS_ONLY")).requireServerKeys())
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.tls.key-store");
    assertThatThrownBy(() -> tls(Map.of("bobbin.http.tls.trust-store", dir.resolve("missing.pem").toString())))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.tls.trust-store")
        .hasMessageContaining("missing.pem");
    assertThatThrownBy(() -> tls(Map.of("bobbin.http.tls.key-file", store.toString())))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.tls.key-file");
    assertThatThrownBy(() -> tls(Map.of("bobbin.http.tls.cluster", true, "bobbin.http.tls.key-store", store.toString())))
        .isInstanceOf(SettingsException.class).hasMessageContaining("bobbin.http.tls.cluster");
  }
}
