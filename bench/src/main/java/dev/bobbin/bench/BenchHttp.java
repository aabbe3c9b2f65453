package dev.bobbin.bench;

import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.RmRestClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bench JVM's one HTTP transport to the RM it measures, which the simulated NodeManagers and
 * AMs share, and the REST calls the scenarios make: submissions, as the user {@code bench}, and
 * whether the RM answers yet.
 */
final class BenchHttp {
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  static final BobbinHttp TRANSPORT = BobbinHttp.builder()
      .connectTimeout(Duration.ofSeconds(5))
      .requestTimeout(REQUEST_TIMEOUT)
      .executor(Runnable::run)
      .build();
  /** The node credential of every RM the bench starts, which the simulated NodeManagers present. */
  static final String NODE_CREDENTIAL = newCredential();
  /** The HMAC key (base64) every RM the bench starts verifies bearer tokens with, under {@code --auth token}. */
  static final String HMAC_KEY = java.util.Base64.getEncoder().encodeToString(randomBytes());

  /** Latencies of one submission's two calls, in nanoseconds. */
  record Timing(long newApp, long submit, String appId) {}

  private BenchHttp() {}

  private static String newCredential() {
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes());
  }

  private static byte[] randomBytes() {
    byte[] secret = new byte[32];
    new java.security.SecureRandom().nextBytes(secret);
    return secret;
  }

  static String rmUrl(int port) {
    return "http://127.0.0.1:" + port;
  }

  /**
   * The REST API of the RM on {@code port}, called as {@code bench} with {@code user}'s credentials
   * ({@link RmProcess#user}), each call waiting up to {@code timeout}.
   */
  static RmRestClient rm(int port, Credentials user, Duration timeout) {
    return new RmRestClient(TRANSPORT.withRequestTimeout(timeout).withCredentials(user), List.of(rmUrl(port)));
  }

  /** A new application id, then its submission to {@code queue}; throws a CallException when either fails. */
  static Timing submit(RmRestClient rm, String queue, String command) {
    long t0 = System.nanoTime();
    String appId = rm.newApplication().applicationId();
    long t1 = System.nanoTime();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("application-id", appId);
    body.put("application-name", "bench");
    body.put("queue", queue);
    body.put("resource", Topology.CONTAINER);
    body.put("am-container-spec", Map.of("commands", Map.of("command", command)));
    rm.submit(body);
    long t2 = System.nanoTime();
    return new Timing(t1 - t0, t2 - t1, appId);
  }

  /** True when {@code GET /ws/v1/cluster/info} answers. */
  static boolean answers(RmRestClient rm) {
    try {
      rm.clusterInfo();
      return true;
    } catch (CallException e) {
      return false;
    }
  }
}
