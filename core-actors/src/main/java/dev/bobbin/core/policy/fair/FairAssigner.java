package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.FairOrdering.Contender;
import dev.bobbin.core.policy.fair.FairShares.QueueShare;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Places containers the way Hadoop's FairScheduler does on a node heartbeat, for every node in turn.
 *
 * <p>On a node it repeatedly walks down from the root: at each parent the children are ordered by
 * the parent's policy ({@link FairOrdering}) with the usage as it stands after the placements made
 * so far, and tried in that order; in the leaf that is reached, the runnable applications with asks
 * are ordered by the leaf's policy and the first one with an ask that can be placed gets one
 * container. This repeats until nothing more can be placed on the node. Within an application the
 * AM ask comes first, then asks by priority (lower number first). An ask is placed only if:
 *
 * <ul>
 *   <li>the node allows it (host, rack or anywhere) and its free resources hold the container;
 *   <li>the leaf and every queue above it stay within their max share after the placement (Hadoop's
 *       {@code fitsInMaxShare});
 *   <li>for an AM ask, the leaf's AM usage stays within maxAmShare × its fair share (Hadoop's
 *       {@code canRunAppAM}, including its fallback to min(cluster available, max share) for a
 *       resource type whose fair share is 0). An application whose AM cannot start gets nothing.
 * </ul>
 *
 * <p>Reservations: a node in {@code reservedNodes} (node id to application id) is kept for that
 * application, which preemption freed it for; only that application is offered the node, under the
 * same limits, until the caller drops the reservation. Hadoop gives such an application first pick
 * of the node and then lets others use what remains; keeping the node whole is stricter, so the
 * freed space cannot go to someone else before the starved application's asks arrive.
 *
 * <p>Not mirrored: Hadoop's container reservations on a node too small for an ask, delay scheduling
 * for locality, and its assignMultiple / maxAssign limits per heartbeat.
 */
public final class FairAssigner {
  private FairAssigner() {}

  /**
   * @param root the queue tree the shares were computed for
   * @param shares the latest {@link FairShareCalculator} result: fair shares for the AM limit and
   *     the reasons, demand for the ordering, the root's share as the cluster size
   * @param nodes the nodes to fill, in the order to fill them
   * @param apps the applications' outstanding asks; {@link AppView#queue()} is the leaf's full path
   * @param snapshots the applications' current usage and AM usage; an application without a
   *     snapshot counts as using nothing
   * @param reservedNodes node id to the id of the only application that may be placed on it
   * @param limit the most placements to decide: the plan is then the first {@code limit} of the
   *     plan without a limit, decided without the cost of the rest
   */
  public static AllocationPlan assign(
      QueueSpec root, FairShares shares, List<NodeView> nodes, List<AppView> apps,
      List<AppSnapshot> snapshots, Map<String, String> reservedNodes, int limit) {
    List<Assignment> out = new ArrayList<>();
    Resource smallest = Asks.smallestAsked(apps);
    if (smallest == null) return new AllocationPlan(out);
    Pass pass = new Pass(QueueIndex.of(root), shares, nodes, apps, snapshots);
    for (NodeView original : nodes) {
      NodeView node = original;
      String reservedFor = reservedNodes.get(node.nodeId());
      while (out.size() < limit && node.free().fits(smallest)) {
        Assignment a = reservedFor == null
            ? pass.offerQueue(root, node)
            : pass.offerReserved(reservedFor, node);
        if (a == null) break;
        out.add(a);
        node = node.allocate(a.capability());
      }
    }
    return new AllocationPlan(out);
  }

  /** With no limit on the number of placements. */
  public static AllocationPlan assign(
      QueueSpec root, FairShares shares, List<NodeView> nodes, List<AppView> apps,
      List<AppSnapshot> snapshots, Map<String, String> reservedNodes) {
    return assign(root, shares, nodes, apps, snapshots, reservedNodes, Integer.MAX_VALUE);
  }

  /** An application's state during one pass; the views themselves stay untouched. */
  private static final class PendingApp {
    final AppView view;
    final QueueSpec leaf;
    final Resource demand;
    List<Ask> remaining;
    Resource usage;

    PendingApp(AppView view, QueueSpec leaf, Resource usage) {
      this.view = view;
      this.leaf = leaf;
      this.remaining = view.asks();
      this.usage = usage;
      this.demand = usage.plus(pending(view.asks()));
    }

    Contender contender() {
      return new Contender(view.appId(), view.submitTime(), view.priority(), 1.0, usage, Resource.NONE, demand);
    }

    List<Ask> candidates() {
      List<Ask> c = new ArrayList<>(remaining);
      c.sort(Comparator.comparing((Ask a) -> !a.am()).thenComparingInt(Ask::priority));
      return c;
    }
  }

  /** The working state of one call to {@link #assign}. */
  private static final class Pass {
    final QueueIndex index;
    final FairShares shares;
    final Resource cluster;
    final Map<String, Resource> queueUsage = new HashMap<>();
    final Map<String, Resource> leafAmUsage = new HashMap<>();
    final Map<String, List<PendingApp>> appsByLeaf = new HashMap<>();
    final Map<String, PendingApp> byId = new LinkedHashMap<>();
    /** Per queue, how many applications under it still ask: a queue with none is not offered the node. */
    final Map<String, Integer> asking = new HashMap<>();
    Resource clusterUsage = Resource.NONE;

    Pass(QueueIndex index, FairShares shares, List<NodeView> nodes, List<AppView> apps,
        List<AppSnapshot> snapshots) {
      this.index = index;
      this.shares = shares;
      QueueShare rootShare = shares.queues().get(index.root().path());
      this.cluster = rootShare != null ? rootShare.fairShare()
          : nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);

      Map<String, AppSnapshot> snapshotById = new HashMap<>();
      for (AppSnapshot s : snapshots) {
        snapshotById.put(s.appId(), s);
        clusterUsage = clusterUsage.plus(s.usage());
        if (!index.isLeaf(s.queuePath())) continue;
        for (QueueSpec q : index.chain(s.queuePath())) queueUsage.merge(q.path(), s.usage(), Resource::plus);
        leafAmUsage.merge(s.queuePath(), s.amUsage(), Resource::plus);
      }

      Map<String, RunnableApps.Submission> submissions = new LinkedHashMap<>();
      snapshots.forEach(s -> submissions.put(s.appId(), new RunnableApps.Submission(s.appId(), s.queuePath(), s.submitTime())));
      apps.forEach(a -> submissions.putIfAbsent(a.appId(), new RunnableApps.Submission(a.appId(), a.queue(), a.submitTime())));
      Set<String> runnable = RunnableApps.select(index, List.copyOf(submissions.values()));

      for (AppView view : apps) {
        if (!runnable.contains(view.appId()) || !index.isLeaf(view.queue())) continue;
        AppSnapshot s = snapshotById.get(view.appId());
        PendingApp app = new PendingApp(view, index.get(view.queue()), s == null ? Resource.NONE : s.usage());
        byId.put(view.appId(), app);
        appsByLeaf.computeIfAbsent(view.queue(), k -> new ArrayList<>()).add(app);
        if (!app.remaining.isEmpty()) countAsking(app.leaf, 1);
      }
    }

    private void countAsking(QueueSpec leaf, int delta) {
      for (QueueSpec q : index.chain(leaf.path())) asking.merge(q.path(), delta, Integer::sum);
    }

    /**
     * Queues and applications with nothing left to ask are left out before the ordering, which
     * changes nothing about the order of the rest and saves ordering them for every container.
     */
    Assignment offerQueue(QueueSpec q, NodeView node) {
      if (asking.getOrDefault(q.path(), 0) <= 0) return null;
      if (q.isLeaf()) {
        List<PendingApp> apps = new ArrayList<>(appsByLeaf.getOrDefault(q.path(), List.of()));
        apps.removeIf(a -> a.remaining.isEmpty());
        Comparator<Contender> order = FairOrdering.forApps(q.policy(), cluster);
        apps.sort(Comparator.comparing(once(PendingApp::contender), order));
        for (PendingApp app : apps) {
          Assignment a = offerApp(app, node, null);
          if (a != null) return a;
        }
        return null;
      }
      List<QueueSpec> children = new ArrayList<>(q.children());
      children.removeIf(c -> asking.getOrDefault(c.path(), 0) <= 0);
      Comparator<Contender> order = FairOrdering.forQueues(q.policy(), cluster);
      children.sort(Comparator.comparing(once(this::contender), order));
      for (QueueSpec child : children) {
        Assignment a = offerQueue(child, node);
        if (a != null) return a;
      }
      return null;
    }

    Assignment offerReserved(String appId, NodeView node) {
      PendingApp app = byId.get(appId);
      return app == null ? null : offerApp(app, node, "node reserved for starved " + appId);
    }

    private Assignment offerApp(PendingApp app, NodeView node, String why) {
      List<Ask> candidates = app.candidates();
      Ask am = candidates.stream().filter(a -> a.am() && a.count() > 0).findFirst().orElse(null);
      if (am != null && !canRunAm(app.leaf, am.capability())) return null;
      for (Ask ask : candidates) {
        if (ask.count() <= 0 || !ask.allows(node.host(), node.nodeId(), node.rack())) continue;
        if (Asks.servedThroughAny(app.remaining, ask)) continue;
        Resource size = ask.capability();
        if (!node.free().fits(size) || !fitsInMaxShare(app.leaf, size)) continue;
        String reason = reason(app, ask, node, why);
        place(app, ask, node);
        return new Assignment(app.view.appId(), app.view.attemptId(), node.nodeId(), ask, reason);
      }
      return null;
    }

    private void place(PendingApp app, Ask ask, NodeView node) {
      Resource size = ask.capability();
      app.remaining = Asks.afterPlacement(app.remaining, ask, node.host(), node.nodeId(), node.rack());
      if (app.remaining.isEmpty()) countAsking(app.leaf, -1);
      app.usage = app.usage.plus(size);
      for (QueueSpec q : index.chain(app.leaf.path())) queueUsage.merge(q.path(), size, Resource::plus);
      if (ask.am()) leafAmUsage.merge(app.leaf.path(), size, Resource::plus);
      clusterUsage = clusterUsage.plus(size);
    }

    private boolean fitsInMaxShare(QueueSpec leaf, Resource size) {
      for (QueueSpec q : index.chain(leaf.path())) {
        if (!QueueIndex.effectiveMax(q).fits(usage(q).plus(size))) return false;
      }
      return true;
    }

    /**
     * Hadoop's canRunAppAM: AM usage plus this AM within ceil(maxAmShare × base) per resource type,
     * where base is the leaf's fair share, or min(cluster available, max share) for a type whose
     * fair share is 0 (so an inactive leaf, or vcores under FAIR, does not forbid every AM).
     */
    private boolean canRunAm(QueueSpec leaf, Resource am) {
      if (leaf.maxAmShare() < 0) return true;
      Resource fair = fairShare(leaf);
      Resource available = cluster.minus(clusterUsage);
      Resource max = QueueIndex.effectiveMax(leaf);
      long memBase = fair.memory() != 0 ? fair.memory() : Math.min(available.memory(), max.memory());
      long cpuBase = fair.vCores() != 0 ? fair.vCores() : Math.min(available.vCores(), max.vCores());
      Resource limit = new Resource(
          (long) Math.ceil(memBase * (double) leaf.maxAmShare()),
          (int) Math.ceil(cpuBase * (double) leaf.maxAmShare()));
      return limit.fits(leafAmUsage.getOrDefault(leaf.path(), Resource.NONE).plus(am));
    }

    private String reason(PendingApp app, Ask ask, NodeView node, String why) {
      QueueSpec leaf = app.leaf;
      Contender queue = contender(leaf);
      String standing = FairOrdering.needyForMinShare(queue) ? ", below its min share " + leaf.minShare() : "";
      return "fair: queue " + leaf.path() + " usage " + usage(leaf) + " vs fair share " + fairShare(leaf)
          + standing + "; " + app.view.appId() + " usage " + app.usage + " vs app share "
          + shares.apps().getOrDefault(app.view.appId(), Resource.NONE) + " gets " + (ask.am() ? "its AM " : "")
          + ask.capability() + " at priority " + ask.priority() + " on " + node.nodeId()
          + (why == null ? "" : " (" + why + ")");
    }

    private Contender contender(QueueSpec q) {
      QueueShare s = shares.queues().get(q.path());
      Resource demand = s == null ? Resource.NONE : s.demand();
      return new Contender(q.path(), 0, 0, q.weight(), usage(q), q.minShare(), demand);
    }

    private Resource usage(QueueSpec q) {
      return queueUsage.getOrDefault(q.path(), Resource.NONE);
    }

    private Resource fairShare(QueueSpec q) {
      QueueShare s = shares.queues().get(q.path());
      return s == null ? Resource.NONE : s.fairShare();
    }
  }

  /** The key of each element computed once per sort, not once per comparison. */
  private static <T> Function<T, Contender> once(Function<T, Contender> key) {
    Map<T, Contender> keys = new IdentityHashMap<>();
    return t -> keys.computeIfAbsent(t, key);
  }

  /**
   * Resources still asked for: the ANY asks hold each request key's total; a key without an ANY
   * ask (strict locality) counts its largest locality ask.
   */
  static Resource pending(List<Ask> asks) {
    Resource total = Resource.NONE;
    List<Ask> seenKeys = new ArrayList<>();
    for (Ask a : asks) {
      if (seenKeys.stream().anyMatch(k -> Asks.sameKey(k, a))) continue;
      seenKeys.add(a);
      List<Ask> sameKey = asks.stream().filter(o -> Asks.sameKey(o, a)).toList();
      int count = sameKey.stream().filter(Ask::isAny).mapToInt(Ask::count).findFirst()
          .orElse(sameKey.stream().mapToInt(Ask::count).max().orElse(0));
      total = total.plus(a.capability().times(Math.max(0, count)));
    }
    return total;
  }
}
