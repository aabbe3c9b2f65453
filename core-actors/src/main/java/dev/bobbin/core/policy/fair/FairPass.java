package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.Locality;
import dev.bobbin.core.policy.LocalityDelay;
import dev.bobbin.core.policy.LocalityRequest;
import dev.bobbin.core.policy.LocalityWaits;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.RequestKey;
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

/** The working state of one {@link FairAssigner} pass; the views it was made from stay untouched. */
final class FairPass {
  /** What offering a node to a queue or application came to, when not nothing. */
  sealed interface Offer {}

  record Assigned(Assignment assignment) implements Offer {}

  record Reserved(NodeReservation reservation) implements Offer {}

  /** What a node's reservation came to. */
  enum Served { PLACED, KEPT, RELEASED }

  /** An application's state during the pass. */
  private static final class PendingApp {
    final AppView view;
    final QueueSpec leaf;
    final Resource demand;
    List<Ask> remaining;
    List<LocalityRequest> requests;
    Resource usage;
    /** Its delay per request, copied from the kept state when first touched. */
    Map<RequestKey, LocalityDelay.Wait> waits;

    PendingApp(AppView view, QueueSpec leaf, Resource usage) {
      this.view = view;
      this.leaf = leaf;
      this.remaining = view.asks();
      this.requests = LocalityRequest.of(remaining);
      this.usage = usage;
      this.demand = usage.plus(FairAssigner.pending(view.asks()));
    }

    Contender contender() {
      return new Contender(view.appId(), view.submitTime(), view.priority(), 1.0, usage, Resource.NONE, demand);
    }

    LocalityRequest request(RequestKey key) {
      for (LocalityRequest r : requests) if (r.key().equals(key)) return r;
      return null;
    }
  }

  private final QueueIndex index;
  private final FairShares shares;
  private final Resource cluster;
  private final FairPlacing.Settings settings;
  private final LocalityWaits keptWaits;
  private final Set<String> minShareStarved;
  private final int clusterNodes;
  private final Map<String, Integer> nodesPerRack = new HashMap<>();
  private final Map<String, Resource> queueUsage = new HashMap<>();
  private final Map<String, Resource> leafAmUsage = new HashMap<>();
  private final Map<String, List<PendingApp>> appsByLeaf = new HashMap<>();
  private final Map<String, PendingApp> byId = new LinkedHashMap<>();
  /** Per queue, how many applications under it still ask: a queue with none is not offered the node. */
  private final Map<String, Integer> asking = new HashMap<>();
  private final Map<String, NodeReservation> reservations;
  /** The least of the sizes that applications starved when the pass began may reserve a node for; null if none. */
  private final Resource smallestReservable;
  private Resource clusterUsage = Resource.NONE;

  FairPass(QueueIndex index, FairShares shares, List<NodeView> nodes, List<AppView> apps, List<AppSnapshot> snapshots,
      FairPlacing.Settings settings, FairPlacing.State state, Set<String> minShareStarved) {
    this.index = index;
    this.shares = shares;
    this.settings = settings;
    this.keptWaits = state.waits();
    this.minShareStarved = minShareStarved;
    this.clusterNodes = nodes.size();
    QueueShare rootShare = shares.queues().get(index.root().path());
    this.cluster = rootShare != null ? rootShare.fairShare()
        : nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
    Map<String, NodeView> usable = new HashMap<>();
    for (NodeView n : nodes) {
      usable.put(n.nodeId(), n);
      nodesPerRack.merge(n.rack(), 1, Integer::sum);
    }

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
    // A reservation whose node is gone or whose request no longer asks for anything goes at once;
    // one whose request still asks is checked when its node comes up (serve).
    this.reservations = new LinkedHashMap<>();
    state.reservations().forEach((nodeId, r) -> {
      PendingApp app = byId.get(r.appId());
      if (usable.containsKey(nodeId) && app != null && app.request(r.request()) != null) reservations.put(nodeId, r);
    });
    this.smallestReservable = smallestReservable();
  }

  /** The reservations after the pass, by node id. */
  Map<String, NodeReservation> reservations() {
    return reservations;
  }

  /** The delay of every application the pass touched, to be kept for the next pass. */
  Map<String, LocalityWaits.AttemptWaits> waits() {
    Map<String, LocalityWaits.AttemptWaits> out = new HashMap<>();
    for (PendingApp app : byId.values()) {
      if (app.waits != null) out.put(app.view.appId(), new LocalityWaits.AttemptWaits(app.view.attemptId(), app.waits));
    }
    return out;
  }

  NodeReservation reservationOn(String nodeId) {
    return reservations.get(nodeId);
  }

  /**
   * Whether a node without room for any asked container is worth offering anyway: some application
   * starved when the pass began has a container big enough to reserve it that would fit the node
   * once free. Hadoop offers every node that heartbeats; offering full nodes only where a reservation
   * may come of it keeps a pass over a busy cluster from walking every queue for every node.
   */
  boolean mayReserveOn(NodeView node) {
    return smallestReservable != null && !reservations.containsKey(node.nodeId())
        && node.capacity().fits(smallestReservable);
  }

  private Resource smallestReservable() {
    if (!settings.reserves()) return null;
    Resource least = null;
    for (PendingApp app : byId.values()) {
      if (!isStarved(app)) continue;
      for (LocalityRequest r : app.requests) {
        if (!isAtLeastThreshold(app, r.capability())) continue;
        Resource c = r.capability();
        least = least == null ? c
            : Resource.of(Math.min(least.memory(), c.memory()), Math.min(least.vCores(), c.vCores()));
      }
    }
    return least;
  }

  private void countAsking(QueueSpec leaf, int delta) {
    for (QueueSpec q : index.chain(leaf.path())) asking.merge(q.path(), delta, Integer::sum);
  }

  /**
   * Offers the node down the tree as Hadoop's queues do: children in their parent's policy order,
   * applications in their leaf's; the first that places or reserves ends the walk. Queues and
   * applications with nothing left to ask are left out before the ordering, which changes nothing
   * about the order of the rest and saves ordering them for every container.
   */
  Offer offerQueue(QueueSpec q, NodeView node) {
    if (asking.getOrDefault(q.path(), 0) <= 0) return null;
    if (q.isLeaf()) {
      List<PendingApp> apps = new ArrayList<>(appsByLeaf.getOrDefault(q.path(), List.of()));
      apps.removeIf(a -> a.remaining.isEmpty());
      Comparator<Contender> order = FairOrdering.forApps(q.policy(), cluster);
      apps.sort(Comparator.comparing(once(PendingApp::contender), order));
      for (PendingApp app : apps) {
        Offer o = offerApp(app, node, null, true);
        if (o != null) return o;
      }
      return null;
    }
    List<QueueSpec> children = new ArrayList<>(q.children());
    children.removeIf(c -> asking.getOrDefault(c.path(), 0) <= 0);
    Comparator<Contender> order = FairOrdering.forQueues(q.policy(), cluster);
    children.sort(Comparator.comparing(once(this::contender), order));
    for (QueueSpec child : children) {
      Offer o = offerQueue(child, node);
      if (o != null) return o;
    }
    return null;
  }

  /** The node, which preemption freed for this application, offered to it alone; it reserves nothing there. */
  Assignment offerHeld(String appId, NodeView node) {
    PendingApp app = byId.get(appId);
    Offer o = app == null ? null : offerApp(app, node, "node reserved for starved " + appId, false);
    return o instanceof Assigned a ? a.assignment() : null;
  }

  /**
   * Hadoop's {@code FSAppAttempt.assignContainer}: the application's requests in its order; the
   * first one that wants this node and whose queues' max shares leave room for it counts an
   * opportunity, and if the delay lets it go at the level the node offers, it gets a container
   * here, or, if the node has no room for it, may reserve the node. Either way the application's
   * turn on this node ends there. An application whose AM may not start yet gets nothing.
   */
  private Offer offerApp(PendingApp app, NodeView node, String why, boolean mayReserve) {
    if (amBlocked(app)) return null;
    for (LocalityRequest request : app.requests) {
      if (!request.mayUse(node) || !fitsInMaxShare(app.leaf, request.capability())) continue;
      boolean room = node.free().fits(request.capability());
      if (room && !rootFits(request.capability())) continue;
      Locality allowed = allowedNow(app, request.key());
      Ask ask = request.placement(node, allowed);
      if (ask == null) continue;
      if (room) return new Assigned(place(app, ask, node, why));
      if (mayReserve && mayReserve(app, request, node, ask)) {
        NodeReservation r = new NodeReservation(node.nodeId(), node.rack(), app.view.appId(), app.view.attemptId(),
            app.leaf.path(), request.key());
        reservations.put(node.nodeId(), r);
        return new Reserved(r);
      }
      return null;
    }
    return null;
  }

  /**
   * Hadoop's {@code assignReservedContainer}: a reservation holds while its request still wants the
   * node (and the queues and the AM limit allow it); then the container is placed once the node has
   * the room and the delay lets it go at this node's level. While it holds, nobody else is offered
   * the node. One that no longer holds is released and the node is offered as usual.
   */
  Served serve(NodeReservation r, NodeView node, List<Assignment> out) {
    PendingApp app = byId.get(r.appId());
    LocalityRequest request = app == null || !app.view.attemptId().equals(r.attemptId()) ? null
        : app.request(r.request());
    if (request == null || !request.mayUse(node) || !fitsInMaxShare(app.leaf, r.size()) || amBlocked(app)) {
      reservations.remove(r.nodeId());
      return Served.RELEASED;
    }
    if (!node.free().fits(r.size()) || !rootFits(r.size())) return Served.KEPT;
    Ask ask = request.placement(node, allowedNow(app, request.key()));
    if (ask == null) return Served.KEPT;
    reservations.remove(r.nodeId());
    out.add(place(app, ask, node, "node reserved for it"));
    return Served.PLACED;
  }

  /**
   * Counts the opportunity and returns the level the request may be placed at now. Without delay
   * everything is allowed and nothing is counted: Hadoop counts, but reads the count only for delay.
   */
  private Locality allowedNow(PendingApp app, RequestKey key) {
    if (!settings.delays()) return Locality.OFF_SWITCH;
    if (app.waits == null) app.waits = new HashMap<>(keptWaits.of(app.view.appId(), app.view.attemptId()));
    LocalityDelay.Wait wait = app.waits.getOrDefault(key, LocalityDelay.Wait.NONE).offered();
    LocalityDelay.Allowed allowed = LocalityDelay.fair(wait, clusterNodes, settings.nodeLocalityThreshold(),
        settings.rackLocalityThreshold());
    app.waits.put(key, allowed.next());
    return allowed.level();
  }

  /**
   * Hadoop's checks before it reserves: the application is starved (below its fair share as its
   * queue's policy compares, or given min-share starvation by the last update), the container is at
   * least the reservation threshold, and, unless the container is node-local, the application holds
   * fewer reservations than its share of the nodes (of the rack's nodes, for a rack-local one).
   */
  private boolean mayReserve(PendingApp app, LocalityRequest request, NodeView node, Ask ask) {
    if (!settings.reserves() || reservations.containsKey(node.nodeId())) return false;
    if (!isStarved(app) || !isAtLeastThreshold(app, request.capability())) return false;
    Locality level = Asks.levelOf(ask, node.host(), node.nodeId(), node.rack());
    if (level == Locality.NODE_LOCAL) return true;
    boolean anywhere = level == Locality.OFF_SWITCH;
    long held = reservations.values().stream()
        .filter(r -> r.appId().equals(app.view.appId()) && (anywhere || r.rack().equals(node.rack()))).count();
    int nodes = anywhere ? clusterNodes : nodesPerRack.getOrDefault(node.rack(), 0);
    int allowed = (int) Math.ceil(nodes * (float) settings.reservableNodes());
    return held < allowed;
  }

  private boolean isStarved(PendingApp app) {
    Resource share = shares.apps().getOrDefault(app.view.appId(), Resource.NONE);
    return StarvationMath.isBelow(app.leaf.policy(), cluster, app.usage, share)
        || minShareStarved.contains(app.view.appId());
  }

  private boolean isAtLeastThreshold(PendingApp app, Resource size) {
    return StarvationMath.compare(app.leaf.policy(), cluster, size, settings.reservationThreshold()) >= 0;
  }

  /** An application whose AM is still to be placed, where its queue's AM limit does not let it start. */
  private boolean amBlocked(PendingApp app) {
    for (LocalityRequest r : app.requests) {
      if (r.am()) return !canRunAm(app.leaf, r.capability());
    }
    return false;
  }

  private Assignment place(PendingApp app, Ask ask, NodeView node, String why) {
    Locality level = Asks.levelOf(ask, node.host(), node.nodeId(), node.rack());
    String reason = reason(app, ask, node, level, why);
    Resource size = ask.capability();
    if (app.waits != null) {
      app.waits.computeIfPresent(RequestKey.of(ask), (k, w) -> LocalityDelay.afterFairPlacement(w, level));
    }
    app.remaining = Asks.afterPlacement(app.remaining, ask, node.host(), node.nodeId(), node.rack());
    app.requests = LocalityRequest.of(app.remaining);
    if (app.remaining.isEmpty()) countAsking(app.leaf, -1);
    app.usage = app.usage.plus(size);
    for (QueueSpec q : index.chain(app.leaf.path())) queueUsage.merge(q.path(), size, Resource::plus);
    if (ask.am()) leafAmUsage.merge(app.leaf.path(), size, Resource::plus);
    clusterUsage = clusterUsage.plus(size);
    return new Assignment(app.view.appId(), app.view.attemptId(), node.nodeId(), ask, reason);
  }

  /**
   * Hadoop's {@code fitsInMaxShare}, from the leaf up to the root's children. The root's max share
   * is the cluster's size here ({@link FairQueueTree}), where Hadoop's root has none unless one is
   * configured; it is checked only when a container is placed ({@link #rootFits}), so that a
   * request on a full cluster may still reserve a node, and keep it, for room the node will have
   * once freed.
   */
  private boolean fitsInMaxShare(QueueSpec leaf, Resource size) {
    for (QueueSpec q : index.chain(leaf.path())) {
      if (q != index.root() && !QueueIndex.effectiveMax(q).fits(usage(q).plus(size))) return false;
    }
    return true;
  }

  private boolean rootFits(Resource size) {
    QueueSpec root = index.root();
    return QueueIndex.effectiveMax(root).fits(usage(root).plus(size));
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

  private String reason(PendingApp app, Ask ask, NodeView node, Locality level, String why) {
    QueueSpec leaf = app.leaf;
    Contender queue = contender(leaf);
    String standing = FairOrdering.needyForMinShare(queue) ? ", below its min share " + leaf.minShare() : "";
    return "fair: queue " + leaf.path() + " usage " + usage(leaf) + " vs fair share " + fairShare(leaf)
        + standing + "; " + app.view.appId() + " usage " + app.usage + " vs app share "
        + shares.apps().getOrDefault(app.view.appId(), Resource.NONE) + " gets " + (ask.am() ? "its AM " : "")
        + ask.capability() + " at priority " + ask.priority() + " on " + node.nodeId() + ", " + level.label()
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

  /** The key of each element computed once per sort, not once per comparison. */
  private static <T> Function<T, Contender> once(Function<T, Contender> key) {
    Map<T, Contender> keys = new IdentityHashMap<>();
    return t -> keys.computeIfAbsent(t, key);
  }
}
