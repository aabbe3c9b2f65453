package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Locality;
import dev.bobbin.core.policy.LocalityRequest;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 *   <li>the node allows the ask ({@link #allowedHere}) and its free space holds the container
 *       resource by resource, so no node is ever over-committed.
 * </ul>
 *
 * <p>Within an application the AM ask comes first, then asks by priority (lower number first).
 * Applications not activated ({@link ApplicationLimits#activate}) get nothing. Container sizes are
 * the asks' own, which the scheduler rounded up to the minimum allocation when they arrived.
 *
 * <p>Not mirrored: reservations of a node too small for an ask and delay scheduling for locality.
 */
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

  /**
   * @param tree the queues' capacities against the cluster the nodes make
   * @param nodes the nodes to fill, in the order to fill them
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the plan
   *     without a limit
   */
  public static AllocationPlan assign(CapacityTree tree, List<NodeView> nodes, Demand demand, int limit) {
    List<Assignment> out = new ArrayList<>();
    Resource smallest = Asks.smallestAsked(demand.waiting());
    if (smallest == null) return new AllocationPlan(out);
    Pass pass = new Pass(tree, demand);
    for (NodeView original : nodes) {
      NodeView node = original;
      while (out.size() < limit && node.free().fits(smallest)) {
        Assignment a = pass.offer(tree.root(), node);
        if (a == null) break;
        out.add(a);
        node = node.allocate(a.capability());
      }
    }
    return new AllocationPlan(out);
  }

  /**
   * The one place that decides whether an ask may go on a node: the ask is the one its request
   * charges a container on this node to, under YARN's locality accounting and relaxLocality rules
   * ({@link LocalityRequest}), with no delay.
   */
  static boolean allowedHere(List<Ask> remaining, Ask ask, NodeView node) {
    for (LocalityRequest request : LocalityRequest.of(remaining)) {
      if (request.any() == null || !Asks.sameKey(request.any(), ask)) continue;
      return request.mayUse(node) && ask.equals(request.placement(node, Locality.OFF_SWITCH));
    }
    return false;
  }

  /** What the ANY asks still want: the total the application waits for. */
  static Resource pending(List<Ask> asks) {
    Resource total = Resource.NONE;
    for (Ask a : asks) if (a.isAny()) total = total.plus(a.capability().times(a.count()));
    return total;
  }

  /** An application during one pass; the views themselves stay untouched. */
  static final class PassApp {
    final AppView view;
    final String user;
    final int priority;
    List<Ask> remaining;
    Resource usage;

    PassApp(AppView view, String user, int priority, Resource usage) {
      this.view = view;
      this.user = user;
      this.priority = priority;
      this.remaining = view.asks();
      this.usage = usage;
    }

    boolean asking() {
      return !remaining.isEmpty();
    }

    Resource demand() {
      return usage.plus(pending(remaining));
    }

    List<Ask> candidates() {
      List<Ask> c = new ArrayList<>(remaining);
      c.sort(Comparator.comparing((Ask a) -> !a.am()).thenComparingInt(Ask::priority));
      return c;
    }
  }

  /** The working state of one call to {@link #assign}. */
  private static final class Pass {
    final CapacityTree tree;
    final ResourceMath rc;
    final Resource cluster;
    final Map<String, Resource> leafUsed = new HashMap<>();
    Map<String, Resource> used;
    /** Per leaf, each user's use there, users in the order of their first application. */
    final Map<String, Map<String, Resource>> userUsed = new HashMap<>();
    final Map<String, List<PassApp>> appsByLeaf = new HashMap<>();
    /** Per queue, how many activated applications under it still ask: a queue with none is not offered the node. */
    final Map<String, Integer> asking = new HashMap<>();
    final CapacitySpecs specs;

    Pass(CapacityTree tree, Demand demand) {
      this.tree = tree;
      this.rc = tree.resourceMath();
      this.cluster = tree.cluster();
      this.specs = demand.specs();
      Map<String, AppSnapshot> snapshots = new HashMap<>();
      for (AppSnapshot s : demand.apps()) {
        snapshots.put(s.appId(), s);
        if (!isLeaf(s.queuePath())) continue;
        leafUsed.merge(s.queuePath(), s.usage(), Resource::plus);
        String user = userOf(demand, s.appId());
        userUsed.computeIfAbsent(s.queuePath(), k -> new LinkedHashMap<>()).merge(user, s.usage(), Resource::plus);
      }
      used = tree.rollUp(leafUsed);
      for (AppView v : demand.waiting()) {
        if (!isLeaf(v.queue()) || !demand.activated().contains(v.appId()) || v.asks().isEmpty()) continue;
        AppSnapshot s = snapshots.get(v.appId());
        String user = userOf(demand, v.appId());
        userUsed.computeIfAbsent(v.queue(), k -> new LinkedHashMap<>()).putIfAbsent(user, Resource.NONE);
        PassApp app = new PassApp(v, user, AppOrder.effectivePriority(tree.spec(v.queue()), v.priority(),
            specs.maxApplicationPriority()), s == null ? Resource.NONE : s.usage());
        appsByLeaf.computeIfAbsent(v.queue(), k -> new ArrayList<>()).add(app);
        countAsking(v.queue(), 1);
      }
    }

    private boolean isLeaf(String path) {
      return tree.contains(path) && tree.spec(path).isLeaf();
    }

    private static String userOf(Demand demand, String appId) {
      String user = demand.users().get(appId);
      if (user == null) throw new IllegalArgumentException("no user for application " + appId);
      return user;
    }

    private void countAsking(String leaf, int delta) {
      for (String q : tree.lineage(leaf)) asking.merge(q, delta, Integer::sum);
    }

    Assignment offer(CapacityQueueSpec q, NodeView node) {
      if (asking.getOrDefault(q.path(), 0) <= 0) return null;
      Resource limit = tree.currentLimit(q.path(), used);
      Resource queueUsed = used.getOrDefault(q.path(), Resource.NONE);
      if (rc.compare(cluster, queueUsed, limit) >= 0) return null;
      if (q.isLeaf()) return offerLeaf(q, node, limit);
      for (QueueOrdering.Ranked child : QueueOrdering.children(tree, q.path(), used)) {
        Assignment a = offer(tree.spec(child.path()), node);
        if (a != null) return a;
      }
      return null;
    }

    private Assignment offerLeaf(CapacityQueueSpec leaf, NodeView node, Resource limit) {
      Resource headroom = limit.minus(used.getOrDefault(leaf.path(), Resource.NONE));
      List<PassApp> apps = new ArrayList<>(appsByLeaf.getOrDefault(leaf.path(), List.of()));
      apps.removeIf(a -> !a.asking());
      apps.sort(AppOrder.of(leaf.orderingPolicy(), specs.sizeBasedWeight().contains(leaf.path())));
      UserLimits.Result limits = null;
      for (PassApp app : apps) {
        if (limits == null) limits = UserLimits.compute(tree, leaf.path(), users(leaf.path()), UserLimits.Mode.ACTIVE_USERS);
        Resource userLimit = UserLimits.limitFor(tree, limits, app.user);
        Resource userUse = userUsed.get(leaf.path()).getOrDefault(app.user, Resource.NONE);
        if (rc.greaterThan(cluster, userUse, userLimit)) continue;
        for (Ask ask : app.candidates()) {
          Resource size = ask.capability();
          if (!rc.fitsIn(size, headroom)) return null;
          QueueCapacities caps = tree.queue(leaf.path());
          if (!caps.maximumAllocation().fits(size)) continue;
          if (!allowedHere(app.remaining, ask, node) || !node.free().fits(size)) continue;
          String reason = reason(leaf, app, ask, node, limit, userUse, userLimit);
          place(leaf, app, ask, node);
          return new Assignment(app.view.appId(), app.view.attemptId(), node.nodeId(), ask, reason);
        }
      }
      return null;
    }

    /** The leaf's users as the user limit reads them: use, and whether an activated application of theirs asks. */
    private List<UserUsage> users(String leaf) {
      Map<String, Boolean> active = new HashMap<>();
      for (PassApp a : appsByLeaf.getOrDefault(leaf, List.of())) if (a.asking()) active.put(a.user, true);
      List<UserUsage> out = new ArrayList<>();
      userUsed.getOrDefault(leaf, Map.of()).forEach((user, r) -> out.add(new UserUsage(user, r, active.containsKey(user))));
      return out;
    }

    private void place(CapacityQueueSpec leaf, PassApp app, Ask ask, NodeView node) {
      Resource size = ask.capability();
      app.remaining = Asks.afterPlacement(app.remaining, ask, node.host(), node.nodeId(), node.rack());
      if (!app.asking()) countAsking(leaf.path(), -1);
      app.usage = app.usage.plus(size);
      leafUsed.merge(leaf.path(), size, Resource::plus);
      userUsed.get(leaf.path()).merge(app.user, size, Resource::plus);
      for (String q : tree.lineage(leaf.path())) used.merge(q, size, Resource::plus);
    }

    private String reason(CapacityQueueSpec leaf, PassApp app, Ask ask, NodeView node, Resource limit,
        Resource userUse, Resource userLimit) {
      QueueCapacities caps = tree.queue(leaf.path());
      Resource leafUse = used.getOrDefault(leaf.path(), Resource.NONE);
      String standing = rc.lessThan(cluster, leafUse, caps.guaranteed()) ? "below its guarantee" : "over its guarantee";
      return "capacity: queue " + leaf.path() + " uses " + leafUse + ", " + standing + " " + caps.guaranteed()
          + ", current limit " + limit + " (maximum " + caps.maximum() + "); user " + app.user + " uses " + userUse
          + " of its limit " + userLimit + "; " + app.view.appId() + " (" + leaf.orderingPolicy().configName()
          + " order, priority " + app.priority + ") gets " + (ask.am() ? "its AM " : "") + ask.capability()
          + " at priority " + ask.priority() + " on " + node.nodeId();
    }
  }
}
