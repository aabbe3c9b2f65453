package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.LocalityWaits;
import dev.bobbin.protocol.Resource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/** What a Fair assignment pass reads besides the shares and the applications, and what it hands on. */
public final class FairPlacing {
  private FairPlacing() {}

  /**
   * Delay scheduling and reservation settings.
   *
   * @param nodeLocalityThreshold {@code yarn.scheduler.fair.locality.threshold.node}: the share of
   *     the cluster's nodes a request passes up before it may go rack-local; below 0, no delay
   * @param rackLocalityThreshold {@code yarn.scheduler.fair.locality.threshold.rack}: the share
   *     passed up again before it may go off-switch; below 0, no delay
   * @param reservationThreshold the least container that may reserve a node (Hadoop's
   *     {@code yarn.scheduler.reservation-threshold.increment-multiple} × the increment allocation);
   *     null: nothing is reserved
   * @param reservableNodes {@code yarn.scheduler.fair.reservable-nodes}: the share of the cluster's
   *     nodes (of a rack's, for a rack-local container) one application may hold reserved for
   *     containers that are not node-local
   */
  public record Settings(double nodeLocalityThreshold, double rackLocalityThreshold, Resource reservationThreshold,
      double reservableNodes) {
    /** Hadoop's defaults with its increment allocation of 1024 MB and 1 vcore. */
    public static final Settings HADOOP_DEFAULTS = of(-1, -1, Resource.of(1024, 1));
    /** No delay and no reservations: each pass places what fits and keeps nothing. */
    public static final Settings PLACEMENT_ONLY = new Settings(-1, -1, null, 0);

    /**
     * Hadoop's reservation defaults (twice the increment allocation, 5 % of the nodes) with these
     * locality thresholds; Bobbin rounds asks to multiples of the minimum allocation, which is the
     * increment here.
     */
    public static Settings of(double nodeLocalityThreshold, double rackLocalityThreshold, Resource increment) {
      return new Settings(nodeLocalityThreshold, rackLocalityThreshold, increment.times(2), 0.05);
    }

    boolean delays() {
      return nodeLocalityThreshold >= 0 && rackLocalityThreshold >= 0;
    }

    boolean reserves() {
      return reservationThreshold != null;
    }
  }

  /**
   * What one pass hands the next.
   *
   * @param waits each application's delay per request
   * @param reservations node reservations by node id
   */
  public record State(LocalityWaits waits, Map<String, NodeReservation> reservations) {
    public static final State EMPTY = new State(LocalityWaits.EMPTY, Map.of());

    public State {
      reservations = Map.copyOf(reservations);
    }

    /** Without the reservations of applications that ask for nothing any more. */
    public State withoutReservationsOf(Predicate<String> idleApp) {
      if (reservations.values().stream().noneMatch(r -> idleApp.test(r.appId()))) return this;
      Map<String, NodeReservation> kept = new LinkedHashMap<>(reservations);
      kept.values().removeIf(r -> idleApp.test(r.appId()));
      return new State(waits, kept);
    }

    /** Without what it kept for the application, which has ended. */
    public State without(String appId) {
      Map<String, NodeReservation> kept = new LinkedHashMap<>(reservations);
      kept.values().removeIf(r -> r.appId().equals(appId));
      return new State(waits.without(appId), kept);
    }
  }
}
