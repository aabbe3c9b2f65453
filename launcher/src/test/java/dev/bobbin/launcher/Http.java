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

/**
 * A test's HTTP client and its bounded wait on observable state. A request to the RM that names no
 * user ({@code user.name}) and carries no credentials is made as {@value #DEFAULT_USER}, as the RM
 * took such callers before it authenticated them.
 */
public final class Http {
  static final String DEFAULT_USER = "dr.who";
  private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(15);

  public record Reply(int status, String body) {
    public JsonNode json() throws Exception {
      return WireJson.mapper().readTree(body.isEmpty() ? "{}" : body);
    }
  }

  public static Reply get(String url) throws Exception {
    return get(url, DEFAULT_TIMEOUT);
  }

  /** A short timeout makes a request lost in a failover cost a retry, not the RM's ask timeout. */
  public static Reply get(String url, Duration timeout) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).GET(), timeout);
  }

  public static Reply post(String url, String body) throws Exception {
    return post(url, body, DEFAULT_TIMEOUT);
  }

  public static Reply post(String url, String body, Duration timeout) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)), timeout);
  }

  static Reply put(String url, String body) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  static Reply send(HttpRequest.Builder b) throws Exception {
    return send(b, DEFAULT_TIMEOUT);
  }

  private static Reply send(HttpRequest.Builder b, Duration timeout) throws Exception {
    HttpRequest built = b.timeout(timeout).header("Accept", "application/json").build();
    HttpResponse<String> r = CLIENT.send(named(built), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body() == null ? "" : r.body());
  }

  /** The client itself, for a test that reads a response's headers. */
  static HttpClient client() {
    return CLIENT;
  }

  /** Sends exactly what it is given: a test of authentication decides the credentials itself. */
  public static Reply sendAsIs(HttpRequest request) throws Exception {
    HttpResponse<String> r = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body() == null ? "" : r.body());
  }

  private static HttpRequest named(HttpRequest request) {
    URI uri = request.uri();
    String query = uri.getRawQuery();
    if (query != null && query.contains("user.name=") || request.headers().firstValue("Authorization").isPresent()) {
      return request;
    }
    URI named = URI.create(uri + (query == null ? "?" : "&") + "user.name=" + DEFAULT_USER);
    return HttpRequest.newBuilder(request, (n, v) -> true).uri(named).build();
  }

  /** Polls until the condition holds (exceptions count as "not yet"), failing after the timeout. */
  public static void await(Duration timeout, String what, Callable<Boolean> condition) throws Exception {
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
