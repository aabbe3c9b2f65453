package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Call;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.TlsSettings;
import dev.bobbin.protocol.client.UnreachableException;
import dev.bobbin.protocol.testing.TestCertificates;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart's flow over HTTPS only: the RM member and both NodeManagers serve TLS with a
 * certificate from the test's own authority, and every client on the way (the quickstart's, the
 * NodeManagers' to the RM, the RM's to the NodeManagers, the AM's to both) verifies it.
 */
class QuickstartHttpsIT {
  @Test
  void theDistributedShellRunsOverHttpsOnlyAndUnverifiedOrPlainClientsGetNothing(@TempDir Path dir) throws Exception {
    TestCertificates certs = TestCertificates.create(dir.resolve("tls"));
    Map<String, Object> tls = Map.of(
        "bobbin.http.tls.policy", "HTTPS_ONLY",
        "bobbin.http.tls.key-store", certs.serverP12().toString(),
        "bobbin.http.tls.key-store-password", certs.password(),
        "bobbin.http.tls.trust-store", certs.caPem().toString());
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    AtomicReference<String> rmAddress = new AtomicReference<>();
    AtomicReference<Throwable> jvmTrust = new AtomicReference<>();
    AtomicReference<Throwable> plain = new AtomicReference<>();
    AtomicReference<Integer> verifiedStatus = new AtomicReference<>();
    AtomicReference<String> apps = new AtomicReference<>();

    var outcome = QuickstartCommand.runIn(dir.resolve("run"), new PrintStream(buf, true, StandardCharsets.UTF_8),
        QuickstartCommand.SHELL, tls, (rmUrl, stop) -> {
          rmAddress.set(rmUrl);
          BobbinHttp verifying = BobbinHttp.builder().tls(TlsSettings.trusting(certs.caPem(), "", false))
              .credentials(Credentials.simpleUser(System.getProperty("user.name"))).build();
          verifiedStatus.set(verifying.sendAndWait(Call.get(rmUrl, "/ws/v1/cluster/info")).status());
          apps.set(new String(verifying.sendAndWait(Call.get(rmUrl, "/ws/v1/cluster/apps")).body(), StandardCharsets.UTF_8));
          jvmTrust.set(failure(() -> BobbinHttp.withDefaults().sendAndWait(Call.get(rmUrl, "/ws/v1/cluster/info"))));
          plain.set(failure(() -> HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
              HttpRequest.newBuilder(URI.create(rmUrl.replace("https://", "http://") + "/ws/v1/cluster/info"))
                  .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())));
        });

    String printed = buf.toString(StandardCharsets.UTF_8);
    assertThat(outcome.succeeded()).as(printed).isTrue();
    outcome.containerOutput().forEach((id, text) -> assertThat(text.strip()).isEqualTo("hello from " + id));
    assertThat(outcome.containerOutput()).hasSize(QuickstartCommand.CONTAINERS);
    assertThat(rmAddress.get()).startsWith("https://");
    assertThat(verifiedStatus.get()).isEqualTo(200);
    assertThat(apps.get()).as("links to NodeManagers use their scheme")
        .contains("\"amContainerLogs\":\"https://").doesNotContain("http://");
    assertThat(jvmTrust.get()).isInstanceOf(UnreachableException.class).satisfies(e -> assertThat(handshake(e)).isTrue());
    assertThat(plain.get()).as("a plain HTTP request gets no answer").isNotNull();
  }

  private interface Attempt {
    Object run() throws Exception;
  }

  private static Throwable failure(Attempt attempt) {
    try {
      attempt.run();
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  private static boolean handshake(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SSLHandshakeException) return true;
    }
    return false;
  }
}
