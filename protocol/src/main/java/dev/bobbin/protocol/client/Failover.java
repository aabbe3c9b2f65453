package dev.bobbin.protocol.client;

import java.time.Duration;
import java.util.List;

/**
 * Which of several servers (the members of an RM cluster) to call next, and how long to wait first.
 * A failure another member might not have moves on to the next address, round robin; a refusal
 * stays. The first pass over the members retries after {@code minBackoff}; after that the delay
 * doubles with each full round, up to {@code maxBackoff}. Immutable: each outcome gives the next.
 */
public record Failover(
    List<String> addresses, int index, int consecutiveFailures, Duration minBackoff, Duration maxBackoff) {
  public static final Duration DEFAULT_MIN_BACKOFF = Duration.ofMillis(100);
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);

  public Failover {
    if (addresses == null || addresses.isEmpty()) throw new IllegalArgumentException("No server address");
    addresses = List.copyOf(addresses);
    if (minBackoff.isNegative() || maxBackoff.compareTo(minBackoff) < 0) {
      throw new IllegalArgumentException("Backoff must grow from " + minBackoff + " to " + maxBackoff);
    }
  }

  public static Failover over(List<String> addresses) {
    return over(addresses, DEFAULT_MIN_BACKOFF, DEFAULT_MAX_BACKOFF);
  }

  public static Failover over(List<String> addresses, Duration minBackoff, Duration maxBackoff) {
    return new Failover(addresses, 0, 0, minBackoff, maxBackoff);
  }

  public String current() {
    return addresses.get(index);
  }

  public Failover afterSuccess() {
    return consecutiveFailures == 0 ? this : new Failover(addresses, index, 0, minBackoff, maxBackoff);
  }

  public Failover afterFailure(boolean tryAnotherServer) {
    int next = tryAnotherServer ? (index + 1) % addresses.size() : index;
    return new Failover(addresses, next, consecutiveFailures + 1, minBackoff, maxBackoff);
  }

  /** The wait before the next try, given the failures so far. */
  public Duration retryDelay() {
    if (consecutiveFailures < addresses.size()) return minBackoff;
    int rounds = Math.min(consecutiveFailures / addresses.size(), 20);
    long millis = minBackoff.toMillis() << rounds;
    return millis >= maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis(millis);
  }
}
