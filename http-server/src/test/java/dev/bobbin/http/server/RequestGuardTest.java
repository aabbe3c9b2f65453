package dev.bobbin.http.server;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.concat;
import static org.apache.pekko.http.javadsl.server.Directives.entity;
import static org.apache.pekko.http.javadsl.server.Directives.get;
import static org.apache.pekko.http.javadsl.server.Directives.path;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The guard in front of a real server: every refusal is YARN's error body and reaches no route. */
class RequestGuardTest {
  private static final HttpLimits LIMITS = new HttpLimits(64 * 1024);
  private static final ActorTestKit kit = ActorTestKit.create();
  private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final AtomicInteger bodiesRead = new AtomicInteger();
  private static ServerBinding binding;
  private static String base;

  @BeforeAll
  static void bind() throws Exception {
    Route routes = concat(
        path("things", () -> concat(
            get(() -> complete("[]")),
            org.apache.pekko.http.javadsl.server.Directives.post(() -> entity(Unmarshaller.entityToString(), body -> {
              bodiesRead.incrementAndGet();
              return complete("read " + body.length());
            })))));
    binding = Http.get(kit.system()).newServerAt("127.0.0.1", 0)
        .withSettings(RequestGuard.serverSettings(kit.system(), LIMITS))
        .bind(RequestGuard.guard(LIMITS, () -> routes)).toCompletableFuture().get(10, TimeUnit.SECONDS);
    base = "http://127.0.0.1:" + binding.localAddress().getPort();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  @BeforeEach
  void reset() {
    bodiesRead.set(0);
  }

  private static HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return client.send(b.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpRequest.Builder postThing(String body, String contentType) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/things"))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    return contentType == null ? b : b.header("Content-Type", contentType);
  }

  private static JsonNode remoteException(HttpResponse<String> r, int status, String exception) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode e = WireJson.mapper().readTree(r.body()).path("RemoteException");
    assertThat(e.path("exception").asText()).isEqualTo(exception);
    assertThat(e.path("javaClassName").asText()).endsWith("." + exception);
    return e;
  }

  private static void stillServes() throws Exception {
    assertThat(send(HttpRequest.newBuilder(URI.create(base + "/things")).GET()).body()).isEqualTo("[]");
  }

  @Test
  void aJsonBodyWithinTheLimitReachesTheRoute() throws Exception {
    HttpResponse<String> r = send(postThing("{\"a\":1}", "application/json; charset=utf-8"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("read 7");
    assertThat(send(postThing("", null)).body()).isEqualTo("read 0");
  }

  @Test
  void aBodyThatSaysItIsTooLargeIsRefusedUnread() throws Exception {
    String big = "x".repeat((int) LIMITS.maxRequestBody() + 1);
    JsonNode e = remoteException(send(postThing(big, "application/json")), 413, "WebApplicationException");
    assertThat(e.path("message").asText()).contains("65537 bytes").contains("65536 bytes")
        .contains("bobbin.http.max-request-body");
    assertThat(bodiesRead).hasValue(0);
    stillServes();
  }

  @Test
  void aBodyWithoutALengthIsCutOffAtTheLimit() throws Exception {
    byte[] chunk = new byte[16 * 1024];
    java.util.Arrays.fill(chunk, (byte) ' ');
    HttpRequest.BodyPublisher chunked = HttpRequest.BodyPublishers.fromPublisher(subscriber ->
        subscriber.onSubscribe(new Flow.Subscription() {
          int sent;

          @Override
          public void request(long n) {
            for (long i = 0; i < n && sent < 8; i++, sent++) subscriber.onNext(ByteBuffer.wrap(chunk));
            if (sent == 8) {
              sent++;
              subscriber.onComplete();
            }
          }

          @Override
          public void cancel() {}
        }));
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/things"))
        .header("Content-Type", "application/json").POST(chunked));
    JsonNode e = remoteException(r, 413, "WebApplicationException");
    assertThat(e.path("message").asText()).contains("65536 bytes");
    assertThat(bodiesRead).hasValue(0);
    stillServes();
  }

  @Test
  void aBodyInAnotherMediaTypeIs415() throws Exception {
    JsonNode e = remoteException(send(postThing("state=KILLED", "application/x-www-form-urlencoded")), 415,
        "NotSupportedException");
    assertThat(e.path("message").asText()).contains("application/x-www-form-urlencoded").contains("application/json");
    remoteException(send(postThing("{}", null)), 415, "NotSupportedException");
    assertThat(bodiesRead).hasValue(0);
  }

  @Test
  void aMethodThePathDoesNotServeIs405AndAnUnknownPath404() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/things")).DELETE());
    JsonNode e = remoteException(r, 405, "NotAllowedException");
    assertThat(e.path("message").asText()).contains("GET").contains("POST");
    JsonNode missing = remoteException(send(HttpRequest.newBuilder(URI.create(base + "/nothing")).GET()), 404,
        "NotFoundException");
    assertThat(missing.path("message").asText()).startsWith("java.lang.Exception: ");
    stillServes();
  }

  @Test
  void aRequestTheServerCannotParseIsAnsweredAsYarnDoesToo() throws Exception {
    // Pekko's limit on a URI is 2k by default.
    JsonNode e = remoteException(send(HttpRequest.newBuilder(URI.create(base + "/things?q=" + "x".repeat(4096))).GET()),
        414, "WebApplicationException");
    assertThat(e.path("message").asText()).contains("URI");
    stillServes();
  }
}
