package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * What one preemption pass decided. The scheduler actor warns the victims' AMs of {@link #decisions()},
 * kills the containers after {@link PreemptionSettings#waitBeforeKill()}, and holds each of
 * {@link #reservations()} for its application until that application has been given the space there.
 *
 * @param attempted false when preemption was off or the cluster not busy enough; {@code reason} says which
 * @param clusterUtilization the larger of memory and vcore utilization over all nodes
 * @param reservations per node and starved application, what the decisions free there, held for it
 * @param notPreempted starved applications (or containers of their requests) this pass preempted
 *     nothing for, each with why: their starvation pays for no whole container, no node can make room,
 *     or a node already has the room
 */
public record PreemptionPlan(
    boolean attempted, double clusterUtilization, String reason, List<PreemptionDecision> decisions,
    List<Reservation> reservations, List<NotPreempted> notPreempted) {

  public PreemptionPlan {
    decisions = List.copyOf(decisions);
    reservations = List.copyOf(reservations);
    notPreempted = List.copyOf(notPreempted);
  }

  static PreemptionPlan notAttempted(double utilization, String reason) {
    return new PreemptionPlan(false, utilization, reason, List.of(), List.of(), List.of());
  }

  /**
   * Space on a node held for a starved application: what the containers preempted there for it free
   * (Hadoop's {@code FSSchedulerNode.resourcesPreemptedForApp}). Pass outstanding ones back to the
   * planner: a node's holds are not counted as space that preemption can use there.
   */
  public record Reservation(String nodeId, String appId, Resource amount) {
    /** What is still promised after the application was given {@code allocated} on this node. */
    public Reservation afterAllocation(Resource allocated) {
      return new Reservation(nodeId, appId, StarvationMath.shortfall(amount, allocated));
    }

    public boolean isFulfilled() {
      return !StarvationMath.anyPositive(amount);
    }
  }

  public record NotPreempted(String appId, Starvation.Kind kind, String reason) {}

  public boolean isEmpty() {
    return decisions.isEmpty();
  }

  /** Every container this plan preempts, in decision order. */
  public List<String> containerIds() {
    return decisions.stream().flatMap(d -> d.containerIds().stream()).toList();
  }
}
