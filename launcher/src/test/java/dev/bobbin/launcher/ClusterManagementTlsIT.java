package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SettingsException;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Call;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.RemoteErrorException;
import dev.bobbin.protocol.client.TlsSettings;
import dev.bobbin.protocol.testing.TestCertificates;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's management endpoints of a member that serves HTTP and HTTPS: over TLS only, while
 * the health checks answer probes on both ports; and no port of their own.
 */
class ClusterManagementTlsIT {
  private RmMember rm;

  @AfterEach
  void stop() {
    if (rm != null) rm.close();
  }

  @Test
  void underHttpAndHttpsTheManagementEndpointsAnswerOnTheHttpsPortOnly(@TempDir Path dir) throws Exception {
    TestCertificates certs = TestCertificates.create(dir.resolve("tls"));
    int https = RestApiIT.freePort();
    rm = RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "bobbin.rm.http-port", RestApiIT.freePort(),
        "bobbin.rm.https-port", https,
        "pekko.remote.artery.canonical.port", RestApiIT.freePort(),
        "bobbin.http.tls.policy", "HTTP_AND_HTTPS",
        "bobbin.http.tls.key-store", certs.serverChainPem().toString(),
        "bobbin.http.tls.key-file", certs.serverKeyPem().toString())));
    BobbinHttp client = BobbinHttp.builder().tls(TlsSettings.trusting(certs.caPem(), "", false))
        .credentials(Credentials.simpleUser("alice")).build();
    String secure = "https://127.0.0.1:" + https;

    JsonNode members = client.sendAndWait(Call.get(secure, "/cluster/members")).as(JsonNode.class);
    assertThat(members.path("members")).hasSize(1);
    assertThatThrownBy(() -> client.sendAndWait(Call.get(rm.url(), "/cluster/members")))
        .isInstanceOfSatisfying(RemoteErrorException.class, e -> {
          assertThat(e.status()).isEqualTo(403);
          assertThat(e.remoteMessage()).contains("served over HTTPS only");
        });
    for (String base : new String[] {rm.url(), secure}) {
      assertThat(WireJson.mapper().readTree(client.sendAndWait(Call.get(base, "/ready")).text()).path("ready")
          .asBoolean()).as(base).isTrue();
    }
  }

  @Test
  void aPortOfTheirOwnIsRefusedNamingTheSetting(@TempDir Path dir) {
    assertThatThrownBy(() -> RmMember.start(ConfigFactory.parseMap(Map.of(
        "bobbin.data-dir", dir.resolve("rm").toString(),
        "pekko.management.http.port", 7626))))
        .isInstanceOf(SettingsException.class)
        .hasMessageContaining("pekko.management.http.port")
        .hasMessageContaining("bobbin.rm.http-port");
  }
}
