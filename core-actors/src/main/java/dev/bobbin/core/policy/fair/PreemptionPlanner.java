package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.StarvationMath.nonNegative;
import static dev.bobbin.core.policy.fair.StarvationMath.shortfall;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.PreemptionDecision.Reason;
import dev.bobbin.core.policy.fair.PreemptionDecision.Victim;
import dev.bobbin.core.policy.fair.PreemptionPlan.NotPreempted;
import dev.bobbin.core.policy.fair.PreemptionPlan.Reservation;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Chooses containers to preempt for starved applications as Hadoop's {@code FSPreemptionThread} does.
 *
 * <p>Starved applications are served in the order {@link Starvation} lists them. For each, its
 * starvation (fair share plus min share) is turned into whole containers of its outstanding requests
 * ({@link StarvedRequests}); an application starved for less than one container of every request
 * preempts nothing. For every container of every such request, the nodes the request names (all of
 * them for {@code *}) are walked in order; on each node the candidates are its allocated containers
 * not already marked, non-AM containers first, and they are taken in that order while they may be
 * preempted, until what the node has unallocated and not held for starved applications, plus what
 * was taken, holds the request. A node that cannot get there offers nothing. The first node whose
 * set costs no AM container wins; otherwise the last one found with fewer AM containers than any
 * before it. When that set still costs AM containers and the request is for a host or rack with
 * relaxed locality, the other nodes are searched the same way and win with fewer AM containers.
 * Nodes that already hold the request without preempting produce an empty set, which preempts
 * nothing but stops the search.
 *
 * <p>A container may be taken when its application's leaf queue and every ancestor allow
 * preemption, and its application stays at or above its fair share (compared as its queue's policy
 * compares) after losing it, everything already marked from it and whatever this node's set already
 * takes from it. Taken containers are marked at once, and what they free is held on their node for
 * the starved application ({@link Reservation}), so later requests in the same plan, and later plans
 * while the reservation stands, neither take them again nor count that space as free.
 *
 * <p>Orders. Hadoop walks all nodes in its node tracker's hash-map order and a rack's nodes in the
 * order they joined; Bobbin walks the nodes in the order it is given them, which the scheduler makes
 * the order they registered, for both. On a node, Hadoop builds its candidate list from a hash map of
 * the node's containers, putting each non-AM container at the front and each AM at the back, so the
 * order within each group is an accident of container-id hashes; Bobbin builds the same list from the
 * containers in allocation order, which makes it non-AM containers newest first, then AM containers
 * oldest first. Within a node's set, Hadoop lists the containers grouped by application in hash-map
 * order; Bobbin lists them in the order they were taken.
 *
 * <p>{@code outstanding} also carries the containers nodes are reserved for ({@link NodeReservation}):
 * like held space, Hadoop's {@code getTotalReserved}, their size is not counted as free.
 *
 * <p>Not mirrored: Hadoop's per-queue {@code yarn.scheduler.fair.am.preemption} switch (Bobbin takes
 * no such key, so AM containers may always be preempted, Hadoop's default).
 */
public final class PreemptionPlanner {
  private PreemptionPlanner() {}

  /**
   * @param cluster the cluster's capacity, which DRF comparisons divide by
   * @param asks each application's outstanding requests, by application id
   * @param nodes the nodes in the order to walk them
   * @param containers the containers preemption may take, each on one of {@code nodes}
   * @param alreadyMarked containers already being preempted: neither taken again nor counted as
   *     their application's
   * @param outstanding space earlier plans preempted for starved applications, still held for them,
   *     and the containers nodes are reserved for
   */
  public static PreemptionPlan plan(
      PreemptionSettings settings, QueueSpec root, FairShares shares, Resource cluster, List<AppSnapshot> apps,
      Map<String, List<Ask>> asks, List<NodeView> nodes, List<ContainerSnapshot> containers, Starvation starvation,
      Set<String> alreadyMarked, List<Reservation> outstanding) {
    Resource used = Resource.NONE;
    for (NodeView n : nodes) used = used.plus(n.allocated());
    double utilization = PreemptionSettings.utilization(used, cluster);
    if (!settings.enabled()) return PreemptionPlan.notAttempted(utilization, "preemption is disabled");
    if (!settings.shouldAttempt(used, cluster)) {
      return PreemptionPlan.notAttempted(utilization, String.format(Locale.ROOT,
          "cluster utilization %.3f is not above the preemption threshold %.3f",
          utilization, settings.clusterUtilizationThreshold()));
    }
    if (starvation.isEmpty()) {
      return new PreemptionPlan(true, utilization, "no starved applications", List.of(), List.of(), List.of());
    }
    return new Pass(root, shares, cluster, apps, asks, nodes, containers, starvation, alreadyMarked, outstanding)
        .run(utilization);
  }

  /**
   * The order Hadoop's node builds its candidate list in, over the containers in allocation order:
   * each non-AM container to the front, each AM to the back.
   */
  private static final Comparator<ContainerSnapshot> CANDIDATE_ORDER = (a, b) -> {
    if (a.am() != b.am()) return a.am() ? 1 : -1;
    int byAllocation = Comparator.comparingLong(ContainerSnapshot::allocatedTime)
        .thenComparing(ContainerSnapshot::containerId).compare(a, b);
    return a.am() ? byAllocation : -byAllocation;
  };

  /** Containers on one node whose preemption would let one container of a request fit there. */
  private static final class Preemptable {
    final String nodeId;
    final Resource freeBefore;
    final int maxAms;
    final List<ContainerSnapshot> chosen = new ArrayList<>();
    int ams;

    Preemptable(String nodeId, Resource freeBefore, int maxAms) {
      this.nodeId = nodeId;
      this.freeBefore = freeBefore;
      this.maxAms = maxAms;
    }

    /** Hadoop's {@code addContainer}: false once the set has as many AM containers as the best one so far. */
    boolean add(ContainerSnapshot c) {
      if (c.am() && ++ams >= maxAms) return false;
      chosen.add(c);
      return true;
    }

    Resource takenFrom(String appId) {
      Resource sum = Resource.NONE;
      for (ContainerSnapshot c : chosen) if (c.appId().equals(appId)) sum = sum.plus(c.resource());
      return sum;
    }
  }

  /** Working state of one planning call; the inputs are only read. */
  private static final class Pass {
    private final FairShares shares;
    private final Resource cluster;
    private final Starvation starvation;
    private final Map<String, AppSnapshot> appsById = new HashMap<>();
    private final Map<String, List<Ask>> asks;
    private final Map<String, QueueSpec> leaves;
    private final Map<String, Boolean> preemptable;
    private final List<NodeView> nodes;
    private final Map<String, Resource> reservedOnNode = new HashMap<>();
    private final Map<String, List<ContainerSnapshot>> candidates = new HashMap<>();
    private final Set<String> marked = new HashSet<>();
    private final Map<String, Resource> beingPreempted = new HashMap<>();
    private final List<PreemptionDecision> decisions = new ArrayList<>();
    private final Map<List<String>, Resource> reserved = new LinkedHashMap<>();
    private final List<NotPreempted> notPreempted = new ArrayList<>();

    Pass(QueueSpec root, FairShares shares, Resource cluster, List<AppSnapshot> apps, Map<String, List<Ask>> asks,
        List<NodeView> nodes, List<ContainerSnapshot> containers, Starvation starvation, Set<String> alreadyMarked,
        List<Reservation> outstanding) {
      this.shares = shares;
      this.cluster = cluster;
      this.starvation = starvation;
      this.asks = asks;
      this.leaves = StarvationMath.leaves(root);
      this.preemptable = StarvationMath.preemptableLeaves(root);
      this.nodes = nodes;
      for (AppSnapshot a : apps) appsById.put(a.appId(), a);
      Set<String> nodeIds = nodes.stream().map(NodeView::nodeId).collect(Collectors.toSet());
      for (ContainerSnapshot c : containers) {
        if (alreadyMarked.contains(c.containerId())) {
          // On its way out: nobody may take it twice, and its application no longer counts it.
          marked.add(c.containerId());
          beingPreempted.merge(c.appId(), c.resource(), Resource::plus);
        } else if (nodeIds.contains(c.nodeId())) {
          candidates.computeIfAbsent(c.nodeId(), k -> new ArrayList<>()).add(c);
        }
      }
      candidates.values().forEach(l -> l.sort(CANDIDATE_ORDER));
      for (Reservation r : outstanding) reservedOnNode.merge(r.nodeId(), r.amount(), Resource::plus);
    }

    PreemptionPlan run(double utilization) {
      for (StarvedApp app : starvation.apps()) serve(app);
      List<Reservation> reservations = new ArrayList<>();
      reserved.forEach((key, amount) -> reservations.add(new Reservation(key.get(0), key.get(1), amount)));
      String reason = String.format(Locale.ROOT,
          "utilization %.3f; %d starved applications; %d decisions preempting %d containers",
          utilization, starvation.apps().size(), decisions.size(),
          decisions.stream().mapToInt(d -> d.containerIds().size()).sum());
      return new PreemptionPlan(true, utilization, reason, decisions, reservations, notPreempted);
    }

    private void serve(StarvedApp starved) {
      List<Ask> requests = StarvedRequests.of(starved.starvedFor(), asks.getOrDefault(starved.appId(), List.of()),
          nodes);
      if (requests.isEmpty()) {
        skip(starved, "its starvation " + starved.starvedFor() + " pays for no whole container of its requests "
            + requestSizes(starved.appId()));
        return;
      }
      for (Ask request : requests) {
        List<NodeView> named = StarvedRequests.nodesFor(request.resourceName(), nodes);
        int noRoom = 0;
        List<String> fitting = new ArrayList<>();
        for (int i = 0; i < request.count(); i++) {
          Preemptable best = best(request, named);
          if (best == null) {
            noRoom++;
          } else if (best.chosen.isEmpty()) {
            fitting.add(best.nodeId);
          } else {
            apply(starved, request, best);
          }
        }
        if (noRoom > 0) {
          skip(starved, String.format(Locale.ROOT, "%d of %d x %s at %s: no node can make room from containers"
              + " whose applications stay at or above their fair share", noRoom, request.count(),
              request.capability(), request.resourceName()));
        }
        if (!fitting.isEmpty()) {
          skip(starved, String.format(Locale.ROOT, "%d of %d x %s at %s: space already unallocated and not held on"
              + " %s", fitting.size(), request.count(), request.capability(), request.resourceName(),
              String.join(", ", fitting)));
        }
      }
    }

    /** Hadoop's {@code getBestPreemptableContainers}, with the wider search for relaxed locality. */
    private Preemptable best(Ask request, List<NodeView> named) {
      Preemptable best = bestOn(request.capability(), named);
      if (request.relaxLocality() && !request.isAny() && best != null && best.ams > 0) {
        List<NodeView> others = nodes.stream().filter(n -> !named.contains(n)).toList();
        Preemptable spare = bestOn(request.capability(), others);
        if (spare != null && spare.ams < best.ams) best = spare;
      }
      return best;
    }

    /** Hadoop's {@code identifyContainersToPreemptForOneContainer}. */
    private Preemptable bestOn(Resource size, List<NodeView> walk) {
      Preemptable best = null;
      int maxAms = Integer.MAX_VALUE;
      for (NodeView node : walk) {
        Preemptable found = onNode(size, node, maxAms);
        if (found == null) continue;
        best = found;
        maxAms = found.ams;
        if (maxAms == 0) break;
      }
      return best;
    }

    /** Hadoop's {@code identifyContainersToPreemptOnNode}: null when the node cannot make room. */
    private Preemptable onNode(Resource size, NodeView node, int maxAms) {
      Resource potential = shortfall(nonNegative(node.free()), reservedOnNode.getOrDefault(node.nodeId(), Resource.NONE));
      Preemptable set = new Preemptable(node.nodeId(), potential, maxAms);
      for (ContainerSnapshot c : candidates.getOrDefault(node.nodeId(), List.of())) {
        if (marked.contains(c.containerId())) continue;
        AppSnapshot victim = appsById.get(c.appId());
        if (victim == null) continue;
        if (mayTake(victim, c, set.takenFrom(victim.appId()))) {
          if (!set.add(c)) return null;
          potential = potential.plus(c.resource());
        }
        if (potential.fits(size)) return set;
      }
      return null;
    }

    /** Hadoop's {@code FSAppAttempt.canContainerBePreempted}. */
    private boolean mayTake(AppSnapshot victim, ContainerSnapshot c, Resource takenOnThisNode) {
      if (!preemptable.getOrDefault(victim.queuePath(), false)) return false;
      QueueSpec leaf = leaves.get(victim.queuePath());
      Resource after = victim.usage()
          .minus(beingPreempted.getOrDefault(victim.appId(), Resource.NONE))
          .minus(c.resource())
          .minus(takenOnThisNode);
      return !StarvationMath.isBelow(leaf.policy(), cluster, after, fairShareOf(victim.appId()));
    }

    private void apply(StarvedApp starved, Ask request, Preemptable set) {
      Map<String, List<ContainerSnapshot>> byApp = new LinkedHashMap<>();
      Resource freed = Resource.NONE;
      for (ContainerSnapshot c : set.chosen) {
        byApp.computeIfAbsent(c.appId(), k -> new ArrayList<>()).add(c);
        freed = freed.plus(c.resource());
      }
      List<Victim> victims = new ArrayList<>();
      for (Map.Entry<String, List<ContainerSnapshot>> e : byApp.entrySet()) {
        String appId = e.getKey();
        Resource taken = sum(e.getValue());
        Resource before = appsById.get(appId).usage().minus(beingPreempted.getOrDefault(appId, Resource.NONE));
        victims.add(new Victim(appId, appsById.get(appId).queuePath(),
            e.getValue().stream().map(ContainerSnapshot::containerId).toList(),
            (int) e.getValue().stream().filter(ContainerSnapshot::am).count(), taken, fairShareOf(appId), before,
            before.minus(taken)));
      }
      for (ContainerSnapshot c : set.chosen) {
        marked.add(c.containerId());
        beingPreempted.merge(c.appId(), c.resource(), Resource::plus);
      }
      reservedOnNode.merge(set.nodeId, freed, Resource::plus);
      reserved.merge(List.of(set.nodeId, starved.appId()), freed, Resource::plus);

      Starvation.StarvedQueue queue = StarvationMath.isNone(starved.minShareStarvation())
          ? null
          : starvation.queue(starved.queuePath()).orElse(null);
      List<String> ids = set.chosen.stream().map(ContainerSnapshot::containerId).toList();
      decisions.add(new PreemptionDecision(starved.appId(), set.nodeId, ids, freed,
          describe(starved, request, set, ids, freed, victims),
          new Reason(starved, queue, request.capability(), set.freeBefore, victims)));
    }

    private static String describe(StarvedApp starved, Ask request, Preemptable set, List<String> ids,
        Resource freed, List<Victim> victims) {
      String from = victims.stream()
          .map(v -> String.format(Locale.ROOT, "%s %s -> %s (fair share %s%s)", v.appId(), v.usageBefore(),
              v.usageAfter(), v.fairShare(), v.amContainers() > 0 ? ", " + v.amContainers() + " AM" : ""))
          .collect(Collectors.joining("; "));
      return String.format(Locale.ROOT,
          "preempt %s on %s, freeing %s beside %s unallocated and not held, so that %s gets a %s container of its"
              + " request at %s there (%s starvation: %s); taken from %s",
          ids, set.nodeId, freed, set.freeBefore, starved.appId(), request.capability(), request.resourceName(),
          starved.kind(), starved.reason(), from);
    }

    private Resource fairShareOf(String appId) {
      return shares.apps().getOrDefault(appId, Resource.NONE);
    }

    private String requestSizes(String appId) {
      return asks.getOrDefault(appId, List.of()).stream().map(a -> a.count() + " x " + a.capability())
          .distinct().collect(Collectors.joining(", ", "[", "]"));
    }

    private void skip(StarvedApp starved, String why) {
      notPreempted.add(new NotPreempted(starved.appId(), starved.kind(), why));
    }

    private static Resource sum(List<ContainerSnapshot> cs) {
      Resource total = Resource.NONE;
      for (ContainerSnapshot c : cs) total = total.plus(c.resource());
      return total;
    }
  }
}
