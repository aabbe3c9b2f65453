package dev.bobbin.launcher;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Decides when the first seed node may form a new cluster by itself: once, for a whole window,
 * every other seed node refused TCP connections on its cluster port or answered that it is not a
 * cluster member, or could not be reached while a majority of the seed nodes (this one included)
 * was found out of any cluster.
 *
 * <p>Pekko's own rule forms the cluster when every other seed answers that it is not a member
 * (safe: nobody else is running one), or when not all have answered within seed-node-timeout. The
 * second half can form a second cluster on the same journal: a first seed restarted on a
 * saturated host hears nothing in time from a member that is up but slow.
 * Such a member still accepts connections (the kernel does, even for a frozen process), so while
 * one does without saying it is not a member, this rule waits. A seed whose port nobody listens on
 * refuses the connection; one that is up but not a member says so. Pekko's timeout is set out of
 * reach for the first seed and this guard takes its place.
 *
 * <p>A seed that cannot be reached at all (the connection times out, or there is no route) may be
 * a host that is down, or members running on the far side of a network split. Those could only
 * run a cluster without this one if they were a majority, as the split-brain resolver keeps the
 * majority side; so an unreachable seed holds this one back unless a majority of the seeds are
 * known to be out of any cluster. A cold start of three with one host down still forms; the first
 * seed cut off from the other two waits.
 */
final class FirstSeedGuard {
  /** A probe's connect timeout; one round probes the other seeds one after another. */
  static final Duration CONNECT = Duration.ofSeconds(1);

  /** What one round decided, and whether it is time to say again in the log why it waits. */
  enum Step { WAIT, WAIT_AND_LOG, FORM }

  /** What a probe of another seed found. */
  enum Probe {
    /** The connection was refused: its host is up and nothing listens on the port. */
    CLOSED("refuses connections"),
    /** The connection timed out or had no route: a host that is down, or one beyond a network split. */
    UNREACHABLE("cannot be reached"),
    /** It answered that it is not a cluster member (it is starting or joining, as this one is). */
    NOT_A_MEMBER("not a member"),
    /** It answered that it is a member: Pekko's own join will take this one to it. */
    MEMBER("a member"),
    /** It accepted the connection but did not answer in time: frozen, starved, or not an RM. */
    SILENT("accepts connections but does not answer");

    final String says;

    Probe(String says) {
      this.says = says;
    }

    boolean holdsBack() {
      return this == MEMBER || this == SILENT;
    }

    boolean outOfAnyCluster() {
      return this == CLOSED || this == NOT_A_MEMBER;
    }
  }

  private final List<InetSocketAddress> otherSeeds;
  private final long windowNanos;
  private final Function<InetSocketAddress, Probe> probe;
  private long lastHeldBackNanos;
  private long lastLoggedNanos;
  private Map<InetSocketAddress, Probe> holdingBack = Map.of();

  /**
   * @param window how long no other seed may hold this one back before it forms a cluster
   * @param startNanos when the member began to join; the window runs from it
   */
  FirstSeedGuard(List<InetSocketAddress> otherSeeds, Duration window, Function<InetSocketAddress, Probe> probe,
      long startNanos) {
    if (otherSeeds.isEmpty()) throw new IllegalArgumentException("the first seed node needs other seed nodes to wait for");
    this.otherSeeds = List.copyOf(otherSeeds);
    this.windowNanos = window.toNanos();
    this.probe = probe;
    this.lastHeldBackNanos = startNanos;
    this.lastLoggedNanos = startNanos;
  }

  /** Probes every other seed once, at {@code nowNanos}. */
  Step step(long nowNanos) {
    Map<InetSocketAddress, Probe> found = new LinkedHashMap<>();
    for (InetSocketAddress seed : otherSeeds) found.put(seed, probe.apply(seed));
    long outOfAnyCluster = 1 + found.values().stream().filter(Probe::outOfAnyCluster).count();
    boolean majorityOut = 2 * outOfAnyCluster > otherSeeds.size() + 1;
    found.values().removeIf(p -> !p.holdsBack() && (p != Probe.UNREACHABLE || majorityOut));
    holdingBack = found;
    if (!holdingBack.isEmpty()) lastHeldBackNanos = nowNanos;
    if (nowNanos - lastHeldBackNanos >= windowNanos) return Step.FORM;
    if (!holdingBack.isEmpty() && nowNanos - lastLoggedNanos >= windowNanos) {
      lastLoggedNanos = nowNanos;
      return Step.WAIT_AND_LOG;
    }
    return Step.WAIT;
  }

  /** The other seeds that held this one back in the last round, with what each was found to be. */
  String holdingBack() {
    return holdingBack.entrySet().stream().map(e -> hostPort(e.getKey()) + " (" + e.getValue().says + ")")
        .collect(Collectors.joining(", "));
  }

  String otherSeeds() {
    return otherSeeds.stream().map(FirstSeedGuard::hostPort).collect(Collectors.joining(", "));
  }

  private static String hostPort(InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }

  /**
   * Whether something listens on {@code address}: a TCP connection is accepted within {@link #CONNECT}
   * ({@code null}), refused ({@link Probe#CLOSED}), or neither ({@link Probe#UNREACHABLE}).
   */
  static Probe connect(InetSocketAddress address) {
    try (Socket s = new Socket()) {
      s.connect(address, (int) CONNECT.toMillis());
      return null;
    } catch (ConnectException refused) {
      return Probe.CLOSED;
    } catch (IOException e) {
      return Probe.UNREACHABLE;
    }
  }
}
