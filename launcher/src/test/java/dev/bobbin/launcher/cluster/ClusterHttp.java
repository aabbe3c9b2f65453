package dev.bobbin.launcher.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/**
 * The HTTP client of the cluster tests (after {@code dev.bobbin.launcher.Http}): every request has
 * a short timeout, so a request lost in a failover costs a retry, not the RM's ask timeout.
 */
final class ClusterHttp {
  static final Duration REQUEST = Duration.ofSeconds(2);
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(1)).build();

  record Reply(int status, String body) {
    JsonNode json() throws IOException {
      return WireJson.mapper().readTree(body.isEmpty() ? "{}" : body);
    }
  }

  static Reply get(String url) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  static Reply post(String url, String body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private static Reply send(HttpRequest.Builder b) throws IOException, InterruptedException {
    HttpResponse<String> r = CLIENT.send(b.timeout(REQUEST).header("Accept", "application/json").build(),
        HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body() == null ? "" : r.body());
  }

  /** Polls every 100 ms until the condition holds (exceptions count as "not yet"); fails after the timeout. */
  static void await(Duration timeout, String what, Callable<Boolean> condition) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    Exception last = null;
    while (Instant.now().isBefore(deadline)) {
      try {
        if (Boolean.TRUE.equals(condition.call())) return;
      } catch (Exception e) {
        last = e;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
    }
    throw new AssertionError("Timed out after " + timeout.toSeconds() + " s waiting for " + what, last);
  }

  private ClusterHttp() {}
}
