package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The transport's TLS settings against an HTTPS server whose certificate the JVM does not trust. */
class BobbinHttpTlsTest {
  private static final char[] PASSWORD = "changeit".toCharArray();
  @TempDir static Path dir;
  private static KeyStore keys;
  private static TestingServer server;
  private static String url;

  @BeforeAll
  static void startHttpsServer() throws Exception {
    keys = selfSignedFor127001(dir.resolve("server.p12"));
    KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    km.init(keys, PASSWORD);
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(km.getKeyManagers(), null, null);
    HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(serverContext) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters p = serverContext.getDefaultSSLParameters();
        p.setProtocols(new String[] {"TLSv1.3"});
        params.setSSLParameters(p);
      }
    });
    server = new TestingServer(https).on("/ws/v1/cluster/info", 200, "{\"clusterInfo\":{}}");
    url = "https://127.0.0.1:" + server.port();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void withTheJvmsTrustTheUnknownCertificateIsRefused() {
    BobbinHttp http = BobbinHttp.withDefaults();

    assertThatThrownBy(() -> http.sendAndWait(Call.get(url, "/ws/v1/cluster/info")))
        .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(handshakeFailed(e)).isTrue());
  }

  @Test
  void aContextTrustingTheCertificateServesEveryCall() throws Exception {
    BobbinHttp http = BobbinHttp.builder().tls(TlsSettings.of(trusting(keys))).build();
    int before = server.received.size();

    http.sendAndWait(Call.get(url, "/ws/v1/cluster/info"));
    http.sendAndWait(Call.post(url, "/ws/v1/cluster/info", Map.of("a", 1)));

    assertThat(server.received.subList(before, server.received.size()))
        .extracting(TestingServer.Received::method).containsExactly("GET", "POST");
  }

  @Test
  void theParametersApplyToo() throws Exception {
    SSLParameters onlyTls12 = new SSLParameters();
    onlyTls12.setProtocols(new String[] {"TLSv1.2"});
    BobbinHttp http = BobbinHttp.builder().tls(TlsSettings.of(trusting(keys)).withParameters(onlyTls12)).build();

    assertThatThrownBy(() -> http.sendAndWait(Call.get(url, "/ws/v1/cluster/info")))
        .isInstanceOfSatisfying(UnreachableException.class, e -> assertThat(handshakeFailed(e)).isTrue());
  }

  private static boolean handshakeFailed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException) return true;
    }
    return false;
  }

  private static SSLContext trusting(KeyStore store) throws Exception {
    TrustManagerFactory tm = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tm.init(store);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tm.getTrustManagers(), null);
    return context;
  }

  /** The JDK's keytool makes the certificate: no test dependency for certificate generation. */
  private static KeyStore selfSignedFor127001(Path file) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "server",
        "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
        "-validity", "2", "-storetype", "PKCS12", "-keystore", file.toString(),
        "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD)))
        .redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(file)) {
      store.load(in, PASSWORD);
    }
    return store;
  }
}
