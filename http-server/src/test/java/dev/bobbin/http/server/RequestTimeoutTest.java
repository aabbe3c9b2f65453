package dev.bobbin.http.server;

import static org.apache.pekko.http.javadsl.server.Directives.completeWithFuture;
import static org.apache.pekko.http.javadsl.server.Directives.path;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A request the server's request-timeout ends is answered with YARN's error body, not Pekko's plain text. */
class RequestTimeoutTest {
  private static final ActorTestKit kit = ActorTestKit.create(ConfigFactory.parseString(
      "pekko.http.server.request-timeout = 500ms").withFallback(ConfigFactory.load()));

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @Test
  void aRequestNoRouteAnswersInTimeIsA503RetriableException() throws Exception {
    HttpLimits limits = new HttpLimits(64 * 1024);
    CompletableFuture<HttpResponse> never = new CompletableFuture<>();
    ServerBinding binding = Http.get(kit.system()).newServerAt("127.0.0.1", 0)
        .withSettings(RequestGuard.serverSettings(kit.system(), limits))
        .bind(RequestGuard.guard(limits, () -> path("stuck", () -> completeWithFuture(never))))
        .toCompletableFuture().get(10, TimeUnit.SECONDS);
    var r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + binding.localAddress().getPort() + "/stuck"))
        .timeout(Duration.ofSeconds(10)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode e = WireJson.mapper().readTree(r.body()).path("RemoteException");
    assertThat(e.path("javaClassName").asText()).isEqualTo("org.apache.hadoop.ipc.RetriableException");
    assertThat(e.path("message").asText()).isEqualTo(
        "The server did not answer GET /stuck in time (pekko.http.server.request-timeout); retry");
  }
}
