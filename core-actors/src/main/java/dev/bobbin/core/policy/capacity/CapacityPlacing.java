package dev.bobbin.core.policy.capacity;

import dev.bobbin.config.capacity.SchedulerWideSettings;
import dev.bobbin.core.policy.LocalityWaits;
import dev.bobbin.core.policy.RequestKey;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the capacity assignment carries from one pass to the next: delay counts and node reservations. */
public final class CapacityPlacing {
  private CapacityPlacing() {}

  /**
   * @param nodeLocalityDelay {@code yarn.scheduler.capacity.node-locality-delay}
   * @param rackLocalityAdditionalDelay {@code yarn.scheduler.capacity.rack-locality-additional-delay}
   * @param rackLocalityFullReset {@code yarn.scheduler.capacity.rack-locality-full-reset}
   * @param reservationsContinueLooking {@code yarn.scheduler.capacity.reservations-continue-looking}
   */
  public record Settings(int nodeLocalityDelay, int rackLocalityAdditionalDelay, boolean rackLocalityFullReset,
      boolean reservationsContinueLooking) {
    /** Hadoop's defaults: 40 missed opportunities, the estimate for off-switch, full reset, continue looking. */
    public static final Settings DEFAULTS = of(SchedulerWideSettings.HADOOP_DEFAULTS);

    public static Settings of(SchedulerWideSettings w) {
      return new Settings(w.nodeLocalityDelay(), w.rackLocalityAdditionalDelay(), w.rackLocalityFullReset(),
          w.reservationsContinueLooking());
    }
  }

  /** One request of one application attempt. */
  public record Request(String appId, String attemptId, RequestKey key) {}

  /**
   * @param missed each attempt's missed scheduling opportunities per request (the waits' counts)
   * @param reservations node reservations by node id
   * @param reReservations per request, how many times its reserved nodes were kept again since it
   *     last reserved a new one (Hadoop's re-reservations, which let a long-waiting request reserve more)
   */
  public record State(LocalityWaits missed, Map<String, CapacityReservation> reservations,
      Map<Request, Integer> reReservations) {
    public static final State EMPTY = new State(LocalityWaits.EMPTY, Map.of(), Map.of());

    public State {
      reservations = Collections.unmodifiableMap(new LinkedHashMap<>(reservations));
      reReservations = Map.copyOf(reReservations);
    }

    /** Without anything kept for the application: it has ended. */
    public State without(String appId) {
      Map<String, CapacityReservation> kept = new LinkedHashMap<>(reservations);
      kept.values().removeIf(r -> r.appId().equals(appId));
      Map<Request, Integer> counts = new HashMap<>(reReservations);
      counts.keySet().removeIf(r -> r.appId().equals(appId));
      return new State(missed.without(appId), kept, counts);
    }

    /** Without the reservations of these nodes: preemption cancelled them. */
    public State withoutReservationsOn(Collection<String> nodeIds) {
      Map<String, CapacityReservation> kept = new LinkedHashMap<>(reservations);
      kept.keySet().removeAll(nodeIds);
      return new State(missed, kept, reReservations);
    }
  }
}
