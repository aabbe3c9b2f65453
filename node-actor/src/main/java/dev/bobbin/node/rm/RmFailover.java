package dev.bobbin.node.rm;

import java.time.Duration;
import java.util.List;

/**
 * Which RM member to call next and how long to wait before retrying. Failures that another member
 * might not have move to the next address (round robin); the first pass over the members retries
 * quickly, after that the delay doubles up to a bound.
 */
public record RmFailover(List<String> addresses, int index, int consecutiveFailures) {
  public static final Duration MIN_BACKOFF = Duration.ofMillis(100);
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

  public RmFailover {
    if (addresses.isEmpty()) throw new IllegalArgumentException("no RM address");
    addresses = List.copyOf(addresses);
  }

  public static RmFailover over(List<String> addresses) {
    return new RmFailover(addresses, 0, 0);
  }

  public String current() {
    return addresses.get(index);
  }

  public RmFailover afterSuccess() {
    return consecutiveFailures == 0 ? this : new RmFailover(addresses, index, 0);
  }

  public RmFailover afterFailure(boolean tryAnotherMember) {
    int next = tryAnotherMember ? (index + 1) % addresses.size() : index;
    return new RmFailover(addresses, next, consecutiveFailures + 1);
  }

  /** Delay before the next attempt, given the failures so far. */
  public Duration retryDelay() {
    if (consecutiveFailures < addresses.size()) return MIN_BACKOFF;
    int rounds = Math.min(consecutiveFailures / addresses.size(), 20);
    long millis = MIN_BACKOFF.toMillis() << rounds;
    return millis >= MAX_BACKOFF.toMillis() ? MAX_BACKOFF : Duration.ofMillis(millis);
  }
}
