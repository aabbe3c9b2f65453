package dev.bobbin.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;

/** A test's HTTP client and its bounded wait on observable state. */
final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  record Reply(int status, String body) {
    JsonNode json() throws Exception {
      return WireJson.mapper().readTree(body);
    }
  }

  static Reply get(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).GET());
  }

  static Reply post(String url, String body) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  static Reply put(String url, String body) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  static Reply send(HttpRequest.Builder b) throws Exception {
    HttpResponse<String> r = CLIENT.send(b.timeout(Duration.ofSeconds(15)).build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }

  /** Polls until the condition holds (exceptions count as "not yet"), failing after the timeout. */
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
    throw new AssertionError("Timed out after " + timeout + " waiting for " + what, last);
  }

  private Http() {}
}
