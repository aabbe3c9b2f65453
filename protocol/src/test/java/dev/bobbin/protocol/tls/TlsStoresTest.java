package dev.bobbin.protocol.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Call;
import dev.bobbin.protocol.client.TlsSettings;
import dev.bobbin.protocol.client.UnreachableException;
import dev.bobbin.protocol.testing.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key and trust stores as PKCS#12 or PEM files, used by a real HTTPS server and Bobbin's client. */
class TlsStoresTest {
  @TempDir static Path dir;
  private static TestCertificates certs;
  private static TestCertificates stranger;
  private HttpsServer server;

  @BeforeAll
  static void makeCertificates() {
    certs = TestCertificates.create(dir.resolve("ours"));
    stranger = TestCertificates.create(dir.resolve("theirs"), "other-ca", "other-server");
  }

  @AfterEach
  void stop() {
    if (server != null) server.stop(0);
  }

  @Test
  void aPkcs12ServerIsVerifiedByClientsTrustingItsCaAsPemOrPkcs12() throws IOException {
    String url = serve(TlsStores.context(TlsStores.keyStore(certs.serverP12(), certs.password(), null),
        certs.password(), null));

    assertThat(get(TlsSettings.trusting(certs.caPem(), "", false), url)).isEqualTo("hello");
    assertThat(get(TlsSettings.trusting(certs.caP12(), certs.password(), false), url)).isEqualTo("hello");
  }

  @Test
  void aPemServerIsVerifiedToo() throws IOException {
    String url = serve(TlsStores.context(TlsStores.keyStore(certs.serverChainPem(), "", certs.serverKeyPem()), "", null));

    assertThat(get(TlsSettings.trusting(certs.caPem(), "", false), url)).isEqualTo("hello");
  }

  @Test
  void aClientTrustingAnotherAuthorityOrTheJvmRefusesTheServer() throws IOException {
    String url = serve(TlsStores.context(TlsStores.keyStore(certs.serverP12(), certs.password(), null),
        certs.password(), null));

    assertThatThrownBy(() -> get(TlsSettings.trusting(stranger.caPem(), "", false), url))
        .satisfies(e -> assertThat(handshakeFailed(e)).as(e.toString()).isTrue());
    assertThatThrownBy(() -> get(TlsSettings.system(), url))
        .satisfies(e -> assertThat(handshakeFailed(e)).as(e.toString()).isTrue());
  }

  @Test
  void anHttpsOnlyClientNeverSendsInTheClearEvenToAnHttpAddress() throws IOException {
    String url = serve(TlsStores.context(TlsStores.keyStore(certs.serverP12(), certs.password(), null),
        certs.password(), null));
    String plain = url.replace("https://", "http://");

    assertThat(get(TlsSettings.trusting(certs.caPem(), "", true), plain)).isEqualTo("hello");
    assertThat(get(TlsSettings.trusting(certs.caPem(), "", true), plain.replace("http://", ""))).isEqualTo("hello");
  }

  @Test
  void unusableStoresAreRefusedNamingTheFile() throws IOException {
    Path pkcs1 = dir.resolve("rsa.pem");
    Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");

    assertThatThrownBy(() -> TlsStores.keyStore(certs.serverP12(), "wrong", null))
        .isInstanceOf(TlsStoreException.class).hasMessageContaining(certs.serverP12().toString());
    assertThatThrownBy(() -> TlsStores.keyStore(certs.serverChainPem(), "", null))
        .isInstanceOf(TlsStoreException.class).hasMessageContaining("private key file");
    assertThatThrownBy(() -> TlsStores.keyStore(certs.serverChainPem(), "", pkcs1))
        .isInstanceOf(TlsStoreException.class).hasMessageContaining(pkcs1.toString()).hasMessageContaining("PKCS#8");
    assertThatThrownBy(() -> TlsStores.trustStore(pkcs1, ""))
        .isInstanceOf(TlsStoreException.class).hasMessageContaining(pkcs1.toString());
  }

  private String serve(SSLContext context) throws IOException {
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.createContext("/hello", ex -> {
      byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    server.start();
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  private static String get(TlsSettings tls, String url) {
    BobbinHttp http = BobbinHttp.builder().tls(tls).build();
    return new String(http.sendAndWait(Call.get(url, "/hello")).body(), StandardCharsets.UTF_8);
  }

  private static boolean handshakeFailed(Throwable e) {
    if (!(e instanceof UnreachableException)) return false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException) return true;
    }
    return false;
  }
}
