package dev.bobbin.am;

import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.client.Failover;
import dev.bobbin.protocol.client.TlsSettings;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How an {@link AmClient} reaches the RM and paces itself.
 *
 * @param rmAddresses base URLs of RM members: the first is called first, the others in turn on failover
 * @param heartbeatInterval pause between allocate calls
 * @param connectTimeout to make a connection to a member; one that cannot be made moves on to the
 *     next member at once
 * @param requestTimeout per HTTP call, from sending it to its answer; a timeout counts as an
 *     unreachable member
 * @param initialBackoff wait before retrying at the next member; doubles each full round of members
 * @param maxBackoff upper bound of that wait
 * @param giveUpAfter how long every member may stay unreachable before the client reports failure
 * @param tls what the AM's clients trust, and whether they speak only HTTPS
 */
public record AmClientSettings(
    List<String> rmAddresses,
    String amToken,
    String attemptId,
    String host,
    int rpcPort,
    String trackingUrl,
    Duration heartbeatInterval,
    Duration connectTimeout,
    Duration requestTimeout,
    Duration initialBackoff,
    Duration maxBackoff,
    Duration giveUpAfter,
    TlsSettings tls) {

  public static final Duration DEFAULT_HEARTBEAT = Duration.ofMillis(200);

  public AmClientSettings {
    if (rmAddresses == null || rmAddresses.isEmpty()) {
      throw new IllegalArgumentException("At least one RM address is needed");
    }
    rmAddresses = rmAddresses.stream().map(AmClientSettings::trimSlash).toList();
    if (amToken == null || amToken.isBlank()) throw new IllegalArgumentException("The AM token is missing");
    host = host == null || host.isBlank() ? "localhost" : host;
    trackingUrl = trackingUrl == null ? "" : trackingUrl;
    requirePositive(heartbeatInterval, "heartbeatInterval");
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
    requirePositive(initialBackoff, "initialBackoff");
    requirePositive(maxBackoff, "maxBackoff");
    requirePositive(giveUpAfter, "giveUpAfter");
    if (tls == null) throw new IllegalArgumentException("tls is null; use TlsSettings.system()");
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException(
          "maxBackoff (" + maxBackoff + ") is below initialBackoff (" + initialBackoff + ")");
    }
  }

  /**
   * Defaults for a short-lived application: 200 ms heartbeats, {@link Failover#CONNECT_TIMEOUT} to
   * connect, 10 s for an answer, 15 minutes before giving up.
   */
  public static AmClientSettings of(List<String> rmAddresses, String amToken, String attemptId) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, "localhost", -1, "", DEFAULT_HEARTBEAT, Failover.CONNECT_TIMEOUT,
        Duration.ofSeconds(10), Duration.ofMillis(100), Duration.ofSeconds(5), Duration.ofMinutes(15),
        TlsSettings.system());
  }

  /**
   * Reads what a NodeManager puts into an AM container's environment: {@code BOBBIN_RM_ADDRESSES},
   * {@code BOBBIN_AM_TOKEN}, {@code CONTAINER_ID} (the attempt follows from it) and {@code NM_HOST}.
   *
   * @throws IllegalArgumentException naming the variable that is missing or malformed
   */
  public static AmClientSettings fromEnvironment(Map<String, String> env) {
    String addresses = require(env, ContainerEnv.RM_ADDRESSES);
    String token = require(env, ContainerEnv.AM_TOKEN);
    String containerId = require(env, ContainerEnv.CONTAINER_ID);
    List<String> list =
        Arrays.stream(addresses.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    return of(list, token, Ids.attemptIdOfContainer(containerId))
        .withTracking(env.getOrDefault(ContainerEnv.NM_HOST, "localhost"), -1, "")
        .withTls(TlsSettings.fromEnvironment(env));
  }

  public AmClientSettings withHeartbeatInterval(Duration interval) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, host, rpcPort, trackingUrl, interval, connectTimeout, requestTimeout,
        initialBackoff, maxBackoff, giveUpAfter, tls);
  }

  public AmClientSettings withTracking(String host, int rpcPort, String trackingUrl) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, host, rpcPort, trackingUrl, heartbeatInterval, connectTimeout, requestTimeout,
        initialBackoff, maxBackoff, giveUpAfter, tls);
  }

  public AmClientSettings withRetries(
      Duration requestTimeout, Duration initialBackoff, Duration maxBackoff, Duration giveUpAfter) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, host, rpcPort, trackingUrl, heartbeatInterval, connectTimeout, requestTimeout,
        initialBackoff, maxBackoff, giveUpAfter, tls);
  }

  public AmClientSettings withConnectTimeout(Duration connectTimeout) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, host, rpcPort, trackingUrl, heartbeatInterval, connectTimeout, requestTimeout,
        initialBackoff, maxBackoff, giveUpAfter, tls);
  }

  public AmClientSettings withTls(TlsSettings tls) {
    return new AmClientSettings(
        rmAddresses, amToken, attemptId, host, rpcPort, trackingUrl, heartbeatInterval, connectTimeout, requestTimeout,
        initialBackoff, maxBackoff, giveUpAfter, tls);
  }

  private static String require(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException("Environment variable " + name + " is not set");
    }
    return v;
  }

  private static String trimSlash(String url) {
    String u = url.trim();
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }

  private static void requirePositive(Duration d, String name) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, was " + d);
    }
  }
}
