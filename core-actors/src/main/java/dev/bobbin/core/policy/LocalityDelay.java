package dev.bobbin.core.policy;

/**
 * Delay scheduling: how long a request passes up nodes that are not local enough before it takes a
 * less local one, counted in scheduling opportunities (each time the application is offered a node
 * that could take a container of the request). The Fair scheduler's rule and the Capacity
 * scheduler's, as pure functions of the counts; the caller keeps the counts ({@link LocalityWaits}).
 */
public final class LocalityDelay {
  private LocalityDelay() {}

  /**
   * One request's delay state.
   *
   * @param allowed the level placements may reach now; null before the Fair rule first looked at it
   * @param opportunities the scheduling opportunities counted since the Fair rule last relaxed it (the
   *     Capacity rule's missed opportunities)
   */
  public record Wait(Locality allowed, int opportunities) {
    public static final Wait NONE = new Wait(null, 0);

    /** One more opportunity, as Hadoop adds one each time the application is offered a node for it. */
    public Wait offered() {
      return new Wait(allowed, opportunities == Integer.MAX_VALUE ? opportunities : opportunities + 1);
    }
  }

  /** What the Fair rule allows now, and the state to keep. */
  public record Allowed(Locality level, Wait next) {}

  /**
   * Hadoop's {@code FSAppAttempt.getAllowedLocalityLevel}: a request starts node-local; once its
   * opportunities exceed {@code nodeThreshold} × the cluster's nodes it may go rack-local, and once
   * they exceed {@code rackThreshold} × the nodes again, off-switch; each step starts the count
   * again. A threshold above 1 counts as 1; either one below 0 turns delay off (Hadoop's default,
   * -1), and everything is allowed at once. Thresholds are taken in single precision, as Hadoop
   * reads them: with 0.7 and 10 nodes the 7th opportunity relaxes, not the 8th.
   *
   * @param wait the state after counting the opportunity being decided ({@link Wait#offered})
   */
  public static Allowed fair(Wait wait, int clusterNodes, double nodeThreshold, double rackThreshold) {
    double node = Math.min((float) nodeThreshold, 1.0);
    double rack = Math.min((float) rackThreshold, 1.0);
    if (node < 0 || rack < 0) return new Allowed(Locality.OFF_SWITCH, wait);
    if (wait.allowed() == null) {
      return new Allowed(Locality.NODE_LOCAL, new Wait(Locality.NODE_LOCAL, wait.opportunities()));
    }
    if (wait.allowed() == Locality.OFF_SWITCH) return new Allowed(Locality.OFF_SWITCH, wait);
    double threshold = wait.allowed() == Locality.NODE_LOCAL ? node : rack;
    if (wait.opportunities() > clusterNodes * threshold) {
      Locality next = wait.allowed() == Locality.NODE_LOCAL ? Locality.RACK_LOCAL : Locality.OFF_SWITCH;
      return new Allowed(next, new Wait(next, 0));
    }
    return new Allowed(wait.allowed(), wait);
  }

  /**
   * After a container of the request was placed at {@code placed}: a placement more local than the
   * level allowed brings the allowed level back to it (Hadoop's {@code resetAllowedLocalityLevel}).
   * The count of opportunities goes on, as in Hadoop's Fair scheduler.
   */
  public static Wait afterFairPlacement(Wait wait, Locality placed) {
    Locality allowed = wait.allowed();
    if (allowed == null || !allowed.admits(placed) || allowed == placed) return wait;
    return new Wait(placed, wait.opportunities());
  }

  /**
   * Hadoop's Capacity scheduler rule ({@code RegularContainerAllocator.canAssign}) for whether the
   * delay lets a container go at {@code level} now. Node-local: always. Rack-local: once the missed
   * opportunities exceed {@code min(clusterNodes, nodeLocalityDelay)}. Off-switch: at once when the
   * request names nothing but {@code *}; otherwise, with {@code rackLocalityAdditionalDelay} at -1
   * (Hadoop's default), once they exceed {@code min(clusterNodes, outstanding × localityWaitFactor)};
   * with it set, once they exceed {@code min(clusterNodes, nodeLocalityDelay +
   * rackLocalityAdditionalDelay)}. The caller also checks the request still wants the rack or host,
   * and that a reserved container skips the off-switch delay, as Hadoop's canAssign does.
   *
   * @param nodeLocalityDelay {@code yarn.scheduler.capacity.node-locality-delay} (Hadoop's default 40)
   * @param rackLocalityAdditionalDelay {@code yarn.scheduler.capacity.rack-locality-additional-delay}
   *     (Hadoop's default -1)
   * @param locations the request's unique location asks ({@link LocalityRequest#locations})
   * @param outstanding the containers the request still wants ({@link LocalityRequest#pending})
   */
  public static boolean capacityAllows(Locality level, long missedOpportunities, int clusterNodes,
      int nodeLocalityDelay, int rackLocalityAdditionalDelay, int locations, int outstanding) {
    return switch (level) {
      case NODE_LOCAL -> true;
      case RACK_LOCAL -> Math.min(clusterNodes, nodeLocalityDelay) < missedOpportunities;
      case OFF_SWITCH -> {
        if (clusterNodes == 0) yield false;
        if (locations == 1) yield true;
        if (rackLocalityAdditionalDelay > -1) {
          yield missedOpportunities > Math.min(clusterNodes, nodeLocalityDelay + rackLocalityAdditionalDelay);
        }
        float wait = outstanding * localityWaitFactor(locations, clusterNodes);
        yield Math.min(clusterNodes, wait) < missedOpportunities;
      }
    };
  }

  /**
   * Hadoop's estimate of how many nodes a request's locations span, as a share of the cluster: its
   * names other than {@code *} over the cluster's nodes, at most 1 (single precision, as Hadoop).
   */
  public static float localityWaitFactor(int locations, int clusterNodes) {
    int required = Math.max(locations - 1, 0);
    return Math.min((float) required / clusterNodes, 1.0f);
  }

  /**
   * Whether the Capacity scheduler starts a request's missed opportunities again after a container
   * of it was placed (not for a reserved container): after a node-local one, and after a rack-local
   * one when {@code yarn.scheduler.capacity.rack-locality-full-reset} is on (Hadoop's default); never
   * after an off-switch one, so that an application with many off-switch requests is not held back.
   */
  public static boolean capacityResets(Locality placed, boolean rackLocalityFullReset) {
    return placed == Locality.NODE_LOCAL || placed == Locality.RACK_LOCAL && rackLocalityFullReset;
  }
}
