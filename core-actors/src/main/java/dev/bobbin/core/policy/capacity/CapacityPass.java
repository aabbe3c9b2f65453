package dev.bobbin.core.policy.capacity;

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
import dev.bobbin.core.policy.capacity.CapacityAssigner.Demand;
import dev.bobbin.core.policy.capacity.CapacityPlacing.Request;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The working state of one {@link CapacityAssigner} pass; the views it was made from stay untouched. */
final class CapacityPass {
  /** What offering a node to a queue came to, when not nothing. */
  sealed interface Offer {}

  record Assigned(Assignment assignment) implements Offer {}

  record Reserved(CapacityReservation reservation) implements Offer {}

  /** How one request fared on the node, Hadoop's allocation states. */
  private enum Skip { NONE, PRIORITY, APP, LOCALITY }

  /** An application during one pass. */
  static final class PassApp {
    final AppView view;
    final String user;
    final int priority;
    List<Ask> remaining;
    List<LocalityRequest> requests;
    Resource usage;
    /** What its reserved nodes hold for it. */
    Resource reserved = Resource.NONE;
    /** Its missed opportunities per request, copied from the kept state when first touched. */
    Map<RequestKey, LocalityDelay.Wait> waits;

    PassApp(AppView view, String user, int priority, Resource usage) {
      this.view = view;
      this.user = user;
      this.priority = priority;
      this.remaining = view.asks();
      this.requests = LocalityRequest.of(remaining);
      this.usage = usage;
    }

    boolean asking() {
      return !remaining.isEmpty();
    }

    Resource demand() {
      return usage.plus(CapacityAssigner.pending(remaining));
    }

    LocalityRequest request(RequestKey key) {
      for (LocalityRequest r : requests) if (r.key().equals(key)) return r;
      return null;
    }
  }

  private final CapacityTree tree;
  private final ResourceMath rc;
  private final Resource cluster;
  private final CapacityPlacing.Settings settings;
  private final LocalityWaits keptMissed;
  private final int clusterNodes;
  private final Map<String, Resource> leafUsed = new HashMap<>();
  private final Map<String, Resource> used;
  /** Per leaf, each user's use there, users in the order of their first application. */
  private final Map<String, Map<String, Resource>> userUsed = new HashMap<>();
  private final Map<String, List<PassApp>> appsByLeaf = new HashMap<>();
  private final Map<String, PassApp> byId = new HashMap<>();
  /** Per queue, how many activated applications under it still ask: a queue with none is not offered the node. */
  private final Map<String, Integer> asking = new HashMap<>();
  private final Map<String, CapacityReservation> reservations = new LinkedHashMap<>();
  /** Per queue, what the reservations under it hold. */
  private final Map<String, Resource> reservedIn = new HashMap<>();
  private final Map<Request, Integer> reReservations;
  private final CapacitySpecs specs;

  CapacityPass(CapacityTree tree, List<NodeView> nodes, Demand demand, CapacityPlacing.Settings settings,
      CapacityPlacing.State state) {
    this.tree = tree;
    this.rc = tree.resourceMath();
    this.cluster = tree.cluster();
    this.specs = demand.specs();
    this.settings = settings;
    this.keptMissed = state.missed();
    this.clusterNodes = nodes.size();
    this.reReservations = new HashMap<>(state.reReservations());
    Map<String, AppSnapshot> snapshots = new HashMap<>();
    for (AppSnapshot s : demand.apps()) {
      snapshots.put(s.appId(), s);
      if (!isLeaf(s.queuePath())) continue;
      leafUsed.merge(s.queuePath(), s.usage(), Resource::plus);
      String user = userOf(demand, s.appId());
      userUsed.computeIfAbsent(s.queuePath(), k -> new LinkedHashMap<>()).merge(user, s.usage(), Resource::plus);
    }
    for (AppView v : demand.waiting()) {
      if (!isLeaf(v.queue()) || !demand.activated().contains(v.appId()) || v.asks().isEmpty()) continue;
      AppSnapshot s = snapshots.get(v.appId());
      String user = userOf(demand, v.appId());
      userUsed.computeIfAbsent(v.queue(), k -> new LinkedHashMap<>()).putIfAbsent(user, Resource.NONE);
      PassApp app = new PassApp(v, user, AppOrder.effectivePriority(tree.spec(v.queue()), v.priority(),
          specs.maxApplicationPriority()), s == null ? Resource.NONE : s.usage());
      appsByLeaf.computeIfAbsent(v.queue(), k -> new ArrayList<>()).add(app);
      byId.put(v.appId(), app);
      countAsking(v.queue(), 1);
    }
    // A reservation holds while its node is usable and its request still asks; it counts in its
    // queue's and user's use, as Hadoop counts a reserved container.
    Map<String, NodeView> usable = new HashMap<>();
    for (NodeView n : nodes) usable.put(n.nodeId(), n);
    state.reservations().forEach((nodeId, r) -> {
      PassApp app = byId.get(r.appId());
      if (!usable.containsKey(nodeId) || app == null || !app.view.attemptId().equals(r.attemptId())
          || app.request(r.request()) == null || !app.view.queue().equals(r.queue())) {
        return;
      }
      reservations.put(nodeId, r);
      app.reserved = app.reserved.plus(r.size());
      leafUsed.merge(r.queue(), r.size(), Resource::plus);
      userUsed.get(r.queue()).merge(app.user, r.size(), Resource::plus);
      for (String q : tree.lineage(r.queue())) reservedIn.merge(q, r.size(), Resource::plus);
    });
    reReservations.keySet().removeIf(q -> reservations.values().stream().noneMatch(r -> requestOf(r).equals(q)));
    used = tree.rollUp(leafUsed);
  }

  /** What the pass hands the next one. */
  CapacityPlacing.State state() {
    Map<String, LocalityWaits.AttemptWaits> touched = new HashMap<>();
    for (PassApp app : byId.values()) {
      if (app.waits != null) {
        touched.put(app.view.appId(), new LocalityWaits.AttemptWaits(app.view.attemptId(), app.waits));
      }
    }
    return new CapacityPlacing.State(keptMissed.with(touched), reservations, reReservations);
  }

  CapacityReservation reservationOn(String nodeId) {
    return reservations.get(nodeId);
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

  Offer offer(CapacityQueueSpec q, NodeView node) {
    return offer(q, node, false);
  }

  /** @param mustGiveUp a queue above was offered the node only because a reservation under it may go */
  private Offer offer(CapacityQueueSpec q, NodeView node, boolean mustGiveUp) {
    if (asking.getOrDefault(q.path(), 0) <= 0) return null;
    Resource limit = tree.currentLimit(q.path(), used);
    if (q.isLeaf()) return offerLeaf(q, node, limit, mustGiveUp);
    if (!mayAssignTo(q.path(), limit, reservedIn.getOrDefault(q.path(), Resource.NONE))) return null;
    boolean giveUp = mustGiveUp || !belowLimit(q.path(), limit);
    for (QueueOrdering.Ranked child : QueueOrdering.children(tree, q.path(), used)) {
      Offer o = offer(tree.spec(child.path()), node, giveUp);
      if (o != null) return o;
    }
    return null;
  }

  private Offer offerLeaf(CapacityQueueSpec leaf, NodeView node, Resource limit, boolean mustGiveUp) {
    Resource headroom = limit.minus(used.getOrDefault(leaf.path(), Resource.NONE));
    List<PassApp> apps = new ArrayList<>(appsByLeaf.getOrDefault(leaf.path(), List.of()));
    apps.removeIf(a -> !a.asking());
    apps.sort(AppOrder.of(leaf.orderingPolicy(), specs.sizeBasedWeight().contains(leaf.path())));
    UserLimits.Result limits = null;
    boolean checkQueue = true;
    for (PassApp app : apps) {
      if (checkQueue) {
        if (!mayAssignTo(leaf.path(), limit, app.reserved)) return null;
        checkQueue = settings.reservationsContinueLooking() && !app.reserved.equals(Resource.NONE);
      }
      if (limits == null) limits = UserLimits.compute(tree, leaf.path(), users(leaf.path()), UserLimits.Mode.ACTIVE_USERS);
      Resource userLimit = UserLimits.limitFor(tree, limits, app.user);
      Resource userUse = userUsed.get(leaf.path()).getOrDefault(app.user, Resource.NONE);
      boolean overUserLimit = rc.greaterThan(cluster, userUse, userLimit);
      if (overUserLimit && !withinByGivingUp(userUse, app.reserved, userLimit)) continue;
      for (LocalityRequest request : app.requests) {
        Resource size = request.capability();
        if (request.pending() <= 0) continue;
        if (!settings.reservationsContinueLooking() && !mayAllocateOrReserve(app, request, leaf)) continue;
        Resource room = settings.reservationsContinueLooking() ? headroom.plus(app.reserved) : headroom;
        if (!rc.fitsIn(size, room)) return null;
        if (!tree.queue(leaf.path()).maximumAllocation().fits(size)) continue;
        Function<Ask, String> why = ask -> reason(leaf, app, ask, node, limit, userUse, userLimit);
        boolean giveUp = mustGiveUp || overUserLimit || !belowLimit(leaf.path(), limit);
        Attempt a = tryOnNode(leaf, app, request, node, headroom, giveUp, why);
        if (a.offer != null) return a.offer;
        if (a.skip == Skip.APP) break;
      }
    }
    return null;
  }

  /**
   * Hadoop's {@code canAssignToThisQueue}: a queue is offered the node while its use is below its
   * current limit; with continue-looking, also while its use less {@code couldGiveUp} (a parent's
   * reservations, or the offered application's in a leaf) is below it, so that a container may be
   * placed by giving up a reserved node.
   */
  private boolean mayAssignTo(String queue, Resource limit, Resource couldGiveUp) {
    Resource queueUsed = used.getOrDefault(queue, Resource.NONE);
    if (belowLimit(queue, limit)) return true;
    return settings.reservationsContinueLooking() && !couldGiveUp.equals(Resource.NONE)
        && rc.lessThan(cluster, queueUsed.minus(couldGiveUp), limit);
  }

  /**
   * Hadoop's {@code canAssignToUser} with continue-looking: a user above its limit may still be
   * placed, by giving up one of the application's reservations, when its use less what the
   * application holds reserved is within the limit.
   */
  private boolean withinByGivingUp(Resource userUse, Resource appReserved, Resource userLimit) {
    return settings.reservationsContinueLooking() && !appReserved.equals(Resource.NONE)
        && !rc.greaterThan(cluster, userUse.minus(appReserved), userLimit);
  }

  private boolean belowLimit(String queue, Resource limit) {
    return rc.compare(cluster, used.getOrDefault(queue, Resource.NONE), limit) < 0;
  }

  /** A request's try on a node: an offer, or how it was skipped. */
  private record Attempt(Offer offer, Skip skip) {
    static final Attempt PRIORITY = new Attempt(null, Skip.PRIORITY);
    static final Attempt APP = new Attempt(null, Skip.APP);
    static final Attempt LOCALITY = new Attempt(null, Skip.LOCALITY);
  }

  /**
   * Hadoop's {@code RegularContainerAllocator} for one request and a node that is not reserved: the
   * opportunity is counted, then the node's host ask, its rack's ask and {@code *} are tried in turn,
   * each where the delay allows it ({@link LocalityDelay#capacityAllows}). A strict level skips the
   * request and gives the opportunity back; a delay that holds the request back skips the rest of
   * the application's requests on this node, keeping the opportunity counted.
   */
  private Attempt tryOnNode(CapacityQueueSpec leaf, PassApp app, LocalityRequest request, NodeView node,
      Resource headroom, boolean mustGiveUp, Function<Ask, String> why) {
    RequestKey key = request.key();
    LocalityDelay.Wait before = wait(app, key);
    LocalityDelay.Wait counted = before.offered();
    app.waits.put(key, counted);
    Ask host = request.at(node.host()) != null ? request.at(node.host()) : request.at(node.nodeId());
    if (host != null) {
      Attempt a = tryAt(leaf, app, request, host, Locality.NODE_LOCAL, node, headroom, mustGiveUp, why);
      if (a.offer != null) return a;
    }
    Ask rack = request.at(node.rack());
    if (rack != null) {
      if (!rack.relaxLocality()) return givenBack(app, key, before);
      if (allows(Locality.RACK_LOCAL, counted, request)) {
        Attempt a = tryAt(leaf, app, request, rack, Locality.RACK_LOCAL, node, headroom, mustGiveUp, why);
        if (a.offer != null) return a;
      }
    }
    Ask any = request.any();
    if (any == null || !any.relaxLocality()) return givenBack(app, key, before);
    if (allows(Locality.OFF_SWITCH, counted, request)) {
      Attempt a = tryAt(leaf, app, request, any, Locality.OFF_SWITCH, node, headroom, mustGiveUp, why);
      if (a.offer != null) return a;
    }
    return Attempt.APP;
  }

  private Attempt givenBack(PassApp app, RequestKey key, LocalityDelay.Wait before) {
    app.waits.put(key, before);
    return Attempt.PRIORITY;
  }

  private boolean allows(Locality level, LocalityDelay.Wait wait, LocalityRequest request) {
    return LocalityDelay.capacityAllows(level, wait.opportunities(), clusterNodes, settings.nodeLocalityDelay(),
        settings.rackLocalityAdditionalDelay(), request.locations(), request.pending());
  }

  private LocalityDelay.Wait wait(PassApp app, RequestKey key) {
    if (app.waits == null) app.waits = new HashMap<>(keptMissed.of(app.view.appId(), app.view.attemptId()));
    return app.waits.getOrDefault(key, LocalityDelay.Wait.NONE);
  }

  /**
   * Hadoop's {@code assignContainer} at one level: placed if the node's free space holds the
   * container; otherwise the node is reserved for it, if the request may reserve another node and
   * the queue's headroom holds it. With continue-looking, a request that already reserved every
   * container it wants, or that needs room under the queue's limit, is placed only by giving up one
   * of its reserved nodes. Placing or reserving first starts the missed opportunities again.
   */
  private Attempt tryAt(CapacityQueueSpec leaf, PassApp app, LocalityRequest request, Ask ask, Locality level,
      NodeView node, Resource headroom, boolean mustGiveUp, Function<Ask, String> why) {
    Resource size = request.capability();
    if (!rc.fitsIn(size, node.capacity())) return Attempt.LOCALITY;
    boolean mayGrow = mayAllocateOrReserve(app, request, leaf);
    boolean needToUnreserve = mustGiveUp || !rc.fitsIn(size, headroom);
    boolean continueLooking = settings.reservationsContinueLooking();
    if (rc.fitsIn(size, node.free())) {
      String reason = why.apply(ask) + ", " + level.label();
      CapacityReservation given = null;
      if (continueLooking && (!mayGrow || needToUnreserve)) {
        given = reservationToGiveUp(app, request.key(), node);
        if (given == null) return Attempt.LOCALITY;
        release(given);
      }
      restart(app, request.key(), level);
      if (given != null) reason += " (giving up its reservation of " + given.nodeId() + ")";
      return new Attempt(new Assigned(place(leaf, app, ask, node, reason)), Skip.NONE);
    }
    if (!mayGrow || continueLooking && needToUnreserve) return Attempt.LOCALITY;
    CapacityReservation r = new CapacityReservation(node.nodeId(), app.view.appId(), app.view.attemptId(),
        leaf.path(), app.user, request.key());
    reserve(r, app);
    restart(app, request.key(), level);
    return new Attempt(new Reserved(r), Skip.NONE);
  }

  /** Hadoop's rule: after the first placement or reservation at a level, the count may start again. */
  private void restart(PassApp app, RequestKey key, Locality level) {
    if (LocalityDelay.capacityResets(level, settings.rackLocalityFullReset())) app.waits.put(key, LocalityDelay.Wait.NONE);
  }

  /**
   * Hadoop's {@code shouldAllocOrReserveNewContainer}: the request may take another node while it
   * wants more containers than it holds nodes reserved for, with an allowance that grows with how
   * often its reservations were kept again, less for containers near the queue's maximum allocation.
   */
  private boolean mayAllocateOrReserve(PassApp app, LocalityRequest request, CapacityQueueSpec leaf) {
    int wanted = request.pending();
    Request of = new Request(app.view.appId(), app.view.attemptId(), request.key());
    int reserved = 0;
    for (CapacityReservation r : reservations.values()) if (requestOf(r).equals(of)) reserved++;
    int starvation = 0;
    if (reserved > 0) {
      Resource maximum = tree.queue(leaf.path()).maximumAllocation();
      float nodeFactor = rc.ratio(request.capability(), maximum);
      float minimumFactor = rc.ratio(maximum.minus(specs.settings().minimumAllocation()), maximum);
      int kept = reReservations.getOrDefault(of, 0);
      starvation = (int) ((kept / (float) reserved) * (1.0f - Math.min(nodeFactor, minimumFactor)));
    }
    return starvation + wanted - reserved > 0;
  }

  /** One of the request's reservations on another node, the first by node id, or null. */
  private CapacityReservation reservationToGiveUp(PassApp app, RequestKey key, NodeView node) {
    CapacityReservation best = null;
    for (CapacityReservation r : reservations.values()) {
      if (!r.appId().equals(app.view.appId()) || !r.request().equals(key) || r.nodeId().equals(node.nodeId())) continue;
      if (best == null || r.nodeId().compareTo(best.nodeId()) < 0) best = r;
    }
    return best;
  }

  private static Request requestOf(CapacityReservation r) {
    return new Request(r.appId(), r.attemptId(), r.request());
  }

  private void reserve(CapacityReservation r, PassApp app) {
    reservations.put(r.nodeId(), r);
    reReservations.put(requestOf(r), 0);
    app.reserved = app.reserved.plus(r.size());
    for (String q : tree.lineage(r.queue())) reservedIn.merge(q, r.size(), Resource::plus);
    charge(r.queue(), app.user, r.size());
  }

  /** The reservation goes; what it held leaves its queue's and user's use. */
  private void release(CapacityReservation r) {
    reservations.remove(r.nodeId());
    reReservations.remove(requestOf(r));
    PassApp app = byId.get(r.appId());
    app.reserved = app.reserved.minus(r.size());
    for (String q : tree.lineage(r.queue())) reservedIn.merge(q, Resource.NONE.minus(r.size()), Resource::plus);
    charge(r.queue(), app.user, Resource.NONE.minus(r.size()));
  }

  private void charge(String leaf, String user, Resource size) {
    leafUsed.merge(leaf, size, Resource::plus);
    userUsed.get(leaf).merge(user, size, Resource::plus);
    for (String q : tree.lineage(leaf)) used.merge(q, size, Resource::plus);
  }

  /**
   * Hadoop's {@code allocateFromReservedContainer}: the reserved node is offered to its request
   * alone, which counts an opportunity; the container is placed once the free space holds it, at
   * the most local level the request allows (off-switch needs no delay for a reserved container),
   * without the queue's limits, which already count it. Until then the reservation is kept again.
   * One whose request no longer asks was dropped when the pass began; one whose request no longer
   * lets it go on this node is kept, as in Hadoop, until the request asks for nothing more. Either
   * way nothing else is placed on the node in this pass.
   */
  void serve(CapacityReservation r, NodeView node, List<Assignment> out) {
    PassApp app = byId.get(r.appId());
    LocalityRequest request = app.request(r.request());
    LocalityDelay.Wait counted = wait(app, r.request()).offered();
    app.waits.put(r.request(), counted);
    Ask ask = request.placement(node, level -> level != Locality.RACK_LOCAL || allows(level, counted, request));
    if (ask == null || !rc.fitsIn(r.size(), node.free())) {
      reReservations.merge(requestOf(r), 1, Integer::sum);
      return;
    }
    release(r);
    Locality level = Asks.levelOf(ask, node.host(), node.nodeId(), node.rack());
    out.add(place(tree.spec(r.queue()), app, ask, node, "capacity: " + r.appId() + " gets " + r.size()
        + " at priority " + ask.priority() + " on " + node.nodeId() + ", " + level.label() + " (node reserved for it)"));
  }

  /** The leaf's users as the user limit reads them: use, and whether an activated application of theirs asks. */
  private List<UserUsage> users(String leaf) {
    Map<String, Boolean> active = new HashMap<>();
    for (PassApp a : appsByLeaf.getOrDefault(leaf, List.of())) if (a.asking()) active.put(a.user, true);
    List<UserUsage> out = new ArrayList<>();
    userUsed.getOrDefault(leaf, Map.of()).forEach((user, r) -> out.add(new UserUsage(user, r, active.containsKey(user))));
    return out;
  }

  private Assignment place(CapacityQueueSpec leaf, PassApp app, Ask ask, NodeView node, String reason) {
    Resource size = ask.capability();
    app.remaining = Asks.afterPlacement(app.remaining, ask, node.host(), node.nodeId(), node.rack());
    app.requests = LocalityRequest.of(app.remaining);
    if (!app.asking()) countAsking(leaf.path(), -1);
    // A request that wants nothing more holds no node: its reservations go at once.
    RequestKey key = RequestKey.of(ask);
    if (app.request(key) == null) {
      for (CapacityReservation r : List.copyOf(reservations.values())) {
        if (r.appId().equals(app.view.appId()) && r.request().equals(key)) release(r);
      }
    }
    app.usage = app.usage.plus(size);
    charge(leaf.path(), app.user, size);
    return new Assignment(app.view.appId(), app.view.attemptId(), node.nodeId(), ask, reason);
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
