package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.LocalityDelay;
import dev.bobbin.core.policy.LocalityRequest;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Places containers the way Hadoop's FairScheduler does on a node heartbeat, for every node in turn.
 *
 * <p>On a node it repeatedly walks down from the root: at each parent the children are ordered by
 * the parent's policy ({@link FairOrdering}) with the usage as it stands after the placements made
 * so far, and tried in that order; in the leaf that is reached, the runnable applications with asks
 * are ordered by the leaf's policy and offered the node in turn ({@code FairPass}). An application
 * takes its requests in order (the AM first, then by priority); the first request that wants the
 * node decides its turn. A request is placed only if:
 *
 * <ul>
 *   <li>its locality allows the node ({@link LocalityRequest}: the host's ask, else the rack's, else
 *       {@code *}, never past a strict level) and its delay allows that level
 *       ({@link LocalityDelay#fair}, with the thresholds of {@link FairPlacing.Settings});
 *   <li>the node's free resources hold the container;
 *   <li>the leaf and every queue above it stay within their max share after the placement (Hadoop's
 *       {@code fitsInMaxShare});
 *   <li>for an AM ask, the leaf's AM usage stays within maxAmShare × its fair share (Hadoop's
 *       {@code canRunAppAM}, including its fallback to min(cluster available, max share) for a
 *       resource type whose fair share is 0). An application whose AM cannot start gets nothing.
 * </ul>
 *
 * <p>Node reservations ({@link NodeReservation}): a request that the node could hold once free but
 * whose free space does not hold it now reserves the node, if its application is starved, the
 * container is at least the reservation threshold and the application is within Hadoop's share of
 * reservable nodes. The node is then offered to that request alone, before anything else, until the
 * container is placed there or the request no longer wants it. This repeats on a node until nothing
 * more is placed or the node is reserved.
 *
 * <p>Space preemption freed: a node in {@code heldNodes} (node id to application id) is kept for that
 * application, which preemption freed it for; only that application is offered the node, under the
 * same limits, and it reserves nothing there, until the caller drops the hold. Hadoop gives such an
 * application first pick of the node and then lets others use what remains; keeping the node whole
 * is stricter, so the freed space cannot go to someone else before the starved application's asks
 * arrive. A node reservation on a held node waits until the hold is gone.
 *
 * <p>Not mirrored: Hadoop's assignMultiple / maxAssign limits per heartbeat (a node is filled), and
 * its time-based delay of continuous scheduling.
 */
public final class FairAssigner {
  private FairAssigner() {}

  /** A pass's placements, and what it hands the next pass. */
  public record Outcome(AllocationPlan plan, FairPlacing.State state) {}

  /**
   * @param root the queue tree the shares were computed for
   * @param shares the latest {@link FairShareCalculator} result: fair shares for the AM limit, the
   *     reasons and who is starved, demand for the ordering, the root's share as the cluster size
   * @param nodes the nodes to fill, in the order to fill them; their number is the cluster's for the
   *     delay thresholds and the reservation limits
   * @param apps the applications' outstanding asks; {@link AppView#queue()} is the leaf's full path
   * @param snapshots the applications' current usage and AM usage; an application without a
   *     snapshot counts as using nothing
   * @param heldNodes node id to the id of the only application that may be placed on it
   * @param minShareStarved applications the last update gave min-share starvation, which may reserve
   * @param state the delays and reservations the previous pass handed on
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the
   *     plan without a limit, decided without the cost of the rest
   */
  public static Outcome assign(
      QueueSpec root, FairShares shares, List<NodeView> nodes, List<AppView> apps, List<AppSnapshot> snapshots,
      Map<String, String> heldNodes, Set<String> minShareStarved, FairPlacing.Settings settings,
      FairPlacing.State state, int limit) {
    List<Assignment> out = new ArrayList<>();
    Resource smallest = Asks.smallestAsked(apps);
    FairPass pass = new FairPass(QueueIndex.of(root), shares, nodes, apps, snapshots, settings, state, minShareStarved);
    for (NodeView original : smallest == null ? List.<NodeView>of() : nodes) {
      if (out.size() >= limit) break;
      NodeView node = original;
      String heldFor = heldNodes.get(node.nodeId());
      if (heldFor != null) {
        while (out.size() < limit && node.free().fits(smallest)) {
          Assignment a = pass.offerHeld(heldFor, node);
          if (a == null) break;
          out.add(a);
          node = node.allocate(a.capability());
        }
        continue;
      }
      NodeReservation reservation = pass.reservationOn(node.nodeId());
      if (reservation != null && pass.serve(reservation, node, out) != FairPass.Served.RELEASED) continue;
      while (out.size() < limit && (node.free().fits(smallest) || pass.mayReserveOn(node))) {
        FairPass.Offer o = pass.offerQueue(root, node);
        if (!(o instanceof FairPass.Assigned a)) break;
        out.add(a.assignment());
        node = node.allocate(a.assignment().capability());
      }
    }
    FairPlacing.State next = new FairPlacing.State(state.waits().with(pass.waits()), pass.reservations());
    return new Outcome(new AllocationPlan(out), next);
  }

  /**
   * With no delay and no reservations: placements only, as a single pass with nothing kept.
   *
   * @param reservedNodes node id to the id of the only application that may be placed on it
   */
  public static AllocationPlan assign(
      QueueSpec root, FairShares shares, List<NodeView> nodes, List<AppView> apps,
      List<AppSnapshot> snapshots, Map<String, String> reservedNodes, int limit) {
    return assign(root, shares, nodes, apps, snapshots, reservedNodes, Set.of(), FairPlacing.Settings.PLACEMENT_ONLY,
        FairPlacing.State.EMPTY, limit).plan();
  }

  /** With no delay, no reservations and no limit on the number of placements. */
  public static AllocationPlan assign(
      QueueSpec root, FairShares shares, List<NodeView> nodes, List<AppView> apps,
      List<AppSnapshot> snapshots, Map<String, String> reservedNodes) {
    return assign(root, shares, nodes, apps, snapshots, reservedNodes, Integer.MAX_VALUE);
  }

  /** Resources still asked for: each request's {@code *} ask holds its total; without one nothing is wanted. */
  static Resource pending(List<Ask> asks) {
    Resource total = Resource.NONE;
    for (LocalityRequest r : LocalityRequest.of(asks)) total = total.plus(r.capability().times(r.pending()));
    return total;
  }
}
