package dev.bobbin.protocol.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of several servers (the members of an RM cluster) to call next, and how long to wait first.
 * The member that answered last is kept and called first. A failure another member might not have
 * moves on to the next address, round robin; a refusal stays. A connection that could not be made
 * moves on at once while there are members left to try in this round; any other failure waits
 * {@code minBackoff} first, and after a full round of failures the wait doubles with each round, up to
 * {@code maxBackoff}. Immutable: each outcome gives the next.
 *
 * <p>Callers of the same list spread over the members by starting where their own key says
 * ({@link #startingFor}), so that they do not all call the first address, nor all wait on it when it is
 * the one that went away.
 */
public record Failover(
    List<String> addresses, int index, int consecutiveFailures, Duration minBackoff, Duration maxBackoff,
    boolean lastConnectFailed) {
  public static final Duration DEFAULT_MIN_BACKOFF = Duration.ofMillis(100);
  public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);
  /**
   * How long a caller of several members waits for a connection before trying the next one: a member
   * that is up answers a connect in milliseconds; the request itself has its own, longer timeout.
   */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

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
    return new Failover(addresses, 0, 0, minBackoff, maxBackoff, false);
  }

  /** The same members, starting at the one {@code callerKey} (a node or attempt id) falls on. */
  public Failover startingFor(String callerKey) {
    int start = Math.floorMod(mix(callerKey.hashCode()), addresses.size());
    return new Failover(addresses, start, consecutiveFailures, minBackoff, maxBackoff, lastConnectFailed);
  }

  /** Every address, the current one first and the rest in their round-robin order. */
  public List<String> inCallingOrder() {
    List<String> ordered = new ArrayList<>(addresses.subList(index, addresses.size()));
    ordered.addAll(addresses.subList(0, index));
    return List.copyOf(ordered);
  }

  public String current() {
    return addresses.get(index);
  }

  public Failover afterSuccess() {
    return consecutiveFailures == 0 ? this : new Failover(addresses, index, 0, minBackoff, maxBackoff, false);
  }

  public Failover afterFailure(boolean tryAnotherServer) {
    int next = tryAnotherServer ? (index + 1) % addresses.size() : index;
    return new Failover(addresses, next, consecutiveFailures + 1, minBackoff, maxBackoff, false);
  }

  /** After this call's failure: moves on when another member may do better, at once when it could not connect. */
  public Failover afterFailure(CallException failure) {
    Failover next = afterFailure(failure.worthTryingAnotherServer());
    boolean connectFailed = failure instanceof UnreachableException u && u.connectFailed();
    return new Failover(next.addresses, next.index, next.consecutiveFailures, minBackoff, maxBackoff, connectFailed);
  }

  /** The wait before the next try, given the failures so far. */
  public Duration retryDelay() {
    if (consecutiveFailures < addresses.size()) return lastConnectFailed ? Duration.ZERO : minBackoff;
    int rounds = Math.min(consecutiveFailures / addresses.size(), 20);
    long millis = minBackoff.toMillis() << rounds;
    return millis >= maxBackoff.toMillis() ? maxBackoff : Duration.ofMillis(millis);
  }

  /** Spreads keys that differ in a digit or two (consecutive ids) over the members. */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }
}
