package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Places containers the way Hadoop's CapacityScheduler does when a node offers its free space, for
 * every node in turn, as many containers per node as fit (its multiple assignments per heartbeat).
 *
 * <p>Each container is found by a walk from the root. A queue is passed over when what it uses has
 * reached its current limit ({@link CapacityTree#currentLimit}: its maximum capacity, and what its
 * parents leave it); a parent offers the node to its children in {@link QueueOrdering}'s order
 * (below their guarantee first, least used over guaranteed first), with the usage as it stands after
 * the placements made so far; a leaf offers it to its activated applications in its ordering
 * policy's order ({@link AppOrder}). An application gets a container when:
 *
 * <ul>
 *   <li>its user is not above the user limit ({@link UserLimits}, with the active users as they
 *       stand): a user may take a container while its use is at or below its limit;
 *   <li>the container fits in the leaf's headroom (current limit less use, compared by the resource
 *       calculator) and within the leaf's maximum allocation; a container beyond the headroom
 *       stops the leaf for this node, as Hadoop stops at a queue limit;
 *   <li>the delay lets the request go at the level this node offers it: node-local at once,
 *       rack-local and off-switch after missed scheduling opportunities ({@link CapacityPass}, with
 *       {@link dev.bobbin.core.policy.LocalityDelay#capacityAllows}), never past a level whose
 *       relaxLocality is false;
 *   <li>the node's free space holds the container resource by resource, so no node is ever
 *       over-committed.
 * </ul>
 *
 * <p>A container the node could hold once free, but whose free space does not hold now, reserves
 * the node ({@link CapacityReservation}) as Hadoop's reserved containers do: the reservation counts
 * in the queue's and user's use, and from the next pass on the node is offered to that request
 * alone until the container is placed there or the request asks for nothing more. A node is
 * offered while its free space holds the minimum allocation, so that a big container can reserve a
 * node that smaller ones keep filling.
 *
 * <p>Within an application the AM ask comes first, then asks by priority (lower number first).
 * Applications not activated ({@link ApplicationLimits#activate}) get nothing. Container sizes are
 * the asks' own, which the scheduler rounded up to the minimum allocation when they arrived.
 * */
public final class CapacityAssigner {
  private CapacityAssigner() {}

  /**
   * What the assigner reads besides the tree and the nodes.
   *
   * @param waiting the applications' outstanding asks; queues are full paths of leaves
   * @param apps every application's usage; one without a snapshot uses nothing
   * @param users the user of each application
   * @param activated the applications the AM limit let start
   * @param specs for the ordering: size-based weights and the priority cap
   */
  public record Demand(List<AppView> waiting, List<AppSnapshot> apps, Map<String, String> users,
      Set<String> activated, CapacitySpecs specs) {}

  /** A pass's placements, and what it hands the next pass. */
  public record Outcome(AllocationPlan plan, CapacityPlacing.State state) {}

  /**
   * @param tree the queues' capacities against the cluster the nodes make
   * @param nodes the nodes to fill, in the order to fill them; their number is the cluster's for the
   *     locality delays
   * @param state the missed opportunities and node reservations the previous pass handed on
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the plan
   *     without a limit
   */
  public static Outcome assign(CapacityTree tree, List<NodeView> nodes, Demand demand,
      CapacityPlacing.Settings settings, CapacityPlacing.State state, int limit) {
    List<Assignment> out = new ArrayList<>();
    Resource smallest = Asks.smallestAsked(demand.waiting());
    CapacityPass pass = new CapacityPass(tree, nodes, demand, settings, state);
    Resource minimum = demand.specs().settings().minimumAllocation();
    ResourceMath rc = tree.resourceMath();
    for (NodeView original : smallest == null ? List.<NodeView>of() : nodes) {
      if (out.size() >= limit) break;
      NodeView node = original;
      CapacityReservation reservation = pass.reservationOn(node.nodeId());
      if (reservation != null) {
        pass.serve(reservation, node, out);
        continue;
      }
      while (out.size() < limit && (rc.fitsIn(smallest, node.free()) || mayReserveOn(rc, node, smallest, minimum))) {
        CapacityPass.Offer o = pass.offer(tree.root(), node);
        if (!(o instanceof CapacityPass.Assigned a)) break;
        out.add(a.assignment());
        node = node.allocate(a.assignment().capability());
      }
    }
    return new Outcome(new AllocationPlan(out), pass.state());
  }

  /**
   * Whether a node without room for any asked container is offered anyway, so that a container may
   * reserve it: Hadoop offers a node whose free space holds the minimum allocation, and only a node
   * that could hold some asked container once free can be reserved. Sizes are compared by the
   * calculator: under the default one, memory alone.
   */
  private static boolean mayReserveOn(ResourceMath rc, NodeView node, Resource smallest, Resource minimum) {
    return rc.fitsIn(minimum, node.free()) && rc.fitsIn(smallest, node.capacity());
  }

  /** What the ANY asks still want: the total the application waits for. */
  static Resource pending(List<Ask> asks) {
    Resource total = Resource.NONE;
    for (Ask a : asks) if (a.isAny()) total = total.plus(a.capability().times(a.count()));
    return total;
  }
}
