package dev.bobbin.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.container.LocalProcessLauncher;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Call;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.ResourceTrackerClient;
import dev.bobbin.protocol.client.TlsSettings;
import dev.bobbin.protocol.testing.TestCertificates;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A NodeManager under HTTP_AND_HTTPS: plain HTTP on its HTTP port, TLS on its HTTPS port, the same API on both. */
class HttpAndHttpsIT {
  @Test
  void bothPortsServeTheNodeApi(@TempDir Path dir) throws Exception {
    TestCertificates certs = TestCertificates.create(dir.resolve("tls"));
    try (NmFixture f = new NmFixture(dir.resolve("work"))) {
      TestingRm rm = f.rm();
      var config = ConfigFactory.parseMap(Map.of(
          "bobbin.http.tls.policy", "HTTP_AND_HTTPS",
          "bobbin.http.tls.key-store", certs.serverChainPem().toString(),
          "bobbin.http.tls.key-file", certs.serverKeyPem().toString(),
          "bobbin.nm.https-port", 0)).withFallback(ConfigFactory.load());
      NodeManager nm = NodeManager.start(f.settings(List.of(rm.url())), config,
          new ResourceTrackerClient(BobbinHttp.withDefaults()), new LocalProcessLauncher(), Clock.systemUTC());
      f.closeables.add(0, nm);
      f.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());

      assertThat(nm.scheme()).isEqualTo("http");
      assertThat(nm.httpsPort()).isPresent();
      BobbinHttp verifying = BobbinHttp.builder().tls(TlsSettings.trusting(certs.caPem(), "", false))
          .credentials(Credentials.simpleUser("alice")).build();
      String https = "https://127.0.0.1:" + nm.httpsPort().getAsInt();
      assertThat(verifying.sendAndWait(Call.get(https, "/ws/v1/node/info")).status()).isEqualTo(200);
      assertThat(verifying.sendAndWait(Call.get(nm.httpAddress(), "/ws/v1/node/info")).status()).isEqualTo(200);
    }
  }
}
