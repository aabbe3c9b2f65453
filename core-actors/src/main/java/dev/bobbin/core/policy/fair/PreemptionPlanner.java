package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.AppSnapshot;
import static dev.bobbin.core.policy.fair.StarvationMath.anyPositive;
import static dev.bobbin.core.policy.fair.StarvationMath.containersIn;
import static dev.bobbin.core.policy.fair.StarvationMath.nonNegative;
import static dev.bobbin.core.policy.fair.StarvationMath.shortfall;

import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.PreemptionDecision.Reason;
import dev.bobbin.core.policy.fair.PreemptionDecision.Victim;
import dev.bobbin.core.policy.fair.PreemptionPlan.NotPreempted;
import dev.bobbin.core.policy.fair.PreemptionPlan.Reservation;
import dev.bobbin.core.policy.fair.Starvation.Kind;
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
 * Chooses containers to preempt for starved applications, after Hadoop's {@code FSPreemptionThread}.
 *
 * <p>For each starved entry, in the order {@link Starvation} lists them, the planner tries to make room
 * for the application's largest pending container, as many times as its starvation pays for (at least
 * once). Room must appear on one node: that node's free space plus the containers chosen there must fit
 * the ask, otherwise nothing is taken. A container can be chosen only if its application's leaf queue
 * and every ancestor allow preemption, its application is not itself starved, and its application stays
 * at or above its fair share (compared as its queue's policy compares) after losing it and everything
 * else already chosen or marked from it. On a node, containers are tried non-AM first and newest first,
 * AMs last; the set is then trimmed of anything the ask does not need, AMs first. Across nodes the set
 * with the fewest AM containers wins, then the node running the fewest AMs, then the smaller set, then
 * the node id.
 *
 * <p>Repeated passes: containers in {@code alreadyMarked} are never chosen again and no longer count
 * toward their application's usage. {@code outstanding} reservations from earlier plans count as room
 * already being made for their application (so it is not preempted for twice) and, once their
 * containers are gone from the node, as space nobody else may use.
 */
public final class PreemptionPlanner {
  private PreemptionPlanner() {}

  public static PreemptionPlan plan(
      PreemptionSettings settings, QueueSpec root, FairShares shares, List<AppSnapshot> apps, List<NodeView> nodes,
      List<ContainerSnapshot> containers, Starvation starvation, Set<String> alreadyMarked) {
    return plan(settings, root, shares, apps, nodes, containers, starvation, alreadyMarked, List.of());
  }

  public static PreemptionPlan plan(
      PreemptionSettings settings, QueueSpec root, FairShares shares, List<AppSnapshot> apps, List<NodeView> nodes,
      List<ContainerSnapshot> containers, Starvation starvation, Set<String> alreadyMarked,
      List<Reservation> outstanding) {
    double utilization = utilization(nodes);
    if (!settings.enabled()) return PreemptionPlan.notAttempted(utilization, "preemption is disabled");
    if (!(utilization > settings.clusterUtilizationThreshold())) {
      return PreemptionPlan.notAttempted(utilization, String.format(Locale.ROOT,
          "cluster utilization %.3f is not above the preemption threshold %.3f",
          utilization, settings.clusterUtilizationThreshold()));
    }
    if (starvation.isEmpty()) {
      return new PreemptionPlan(true, utilization, "no starved applications", List.of(), List.of(), List.of());
    }
    return new Pass(root, shares, apps, nodes, containers, starvation, alreadyMarked, outstanding).run(utilization);
  }

  /** The larger of memory and vcore utilization, as Hadoop's {@code shouldAttemptPreemption} computes it. */
  public static double utilization(List<NodeView> nodes) {
    Resource capacity = Resource.NONE;
    Resource allocated = Resource.NONE;
    for (NodeView n : nodes) {
      capacity = capacity.plus(n.capacity());
      allocated = allocated.plus(n.allocated());
    }
    double mem = capacity.memory() > 0 ? (double) allocated.memory() / capacity.memory() : 0;
    double cpu = capacity.vCores() > 0 ? (double) allocated.vCores() / capacity.vCores() : 0;
    return Math.max(mem, cpu);
  }

  /** Kill order on a node: non-AM before AM, newest first, id as the last word. */
  private static final Comparator<ContainerSnapshot> KILL_ORDER =
      Comparator.comparing(ContainerSnapshot::am)
          .thenComparing(Comparator.comparingLong(ContainerSnapshot::allocatedTime).reversed())
          .thenComparing(Comparator.comparing(ContainerSnapshot::containerId).reversed());

  private record Option(String nodeId, List<ContainerSnapshot> chosen, int amsChosen, int amsOnNode) {}

  private static final Comparator<Option> BEST_OPTION =
      Comparator.comparingInt(Option::amsChosen)
          .thenComparingInt(Option::amsOnNode)
          .thenComparingInt(o -> o.chosen().size())
          .thenComparing(Option::nodeId);

  /** Working state of one planning call; the inputs are only read. */
  private static final class Pass {
    private final FairShares shares;
    private final Starvation starvation;
    private final Map<String, AppSnapshot> appsById = new HashMap<>();
    private final Map<String, QueueSpec> leaves;
    private final Map<String, Boolean> preemptable;
    private final Set<String> starvedIds;
    private final Resource cluster;
    private final List<String> nodeIds = new ArrayList<>();
    private final Map<String, Resource> avail = new HashMap<>();
    private final Map<String, Integer> amsOnNode = new HashMap<>();
    private final Map<String, List<ContainerSnapshot>> candidates = new HashMap<>();
    private final Map<String, Resource> victimUsage = new HashMap<>();
    private final Map<String, Resource> credit = new HashMap<>();
    private final Set<String> chosen = new HashSet<>();
    private final List<PreemptionDecision> decisions = new ArrayList<>();
    private final Map<List<String>, Resource> reserved = new LinkedHashMap<>();
    private final List<NotPreempted> notPreempted = new ArrayList<>();

    Pass(QueueSpec root, FairShares shares, List<AppSnapshot> apps, List<NodeView> nodes,
        List<ContainerSnapshot> containers, Starvation starvation, Set<String> alreadyMarked,
        List<Reservation> outstanding) {
      this.shares = shares;
      this.starvation = starvation;
      this.leaves = StarvationMath.leaves(root);
      this.preemptable = StarvationMath.preemptableLeaves(root);
      this.starvedIds = starvation.apps().stream().map(StarvedApp::appId).collect(Collectors.toSet());
      for (AppSnapshot a : apps) {
        appsById.put(a.appId(), a);
        victimUsage.put(a.appId(), a.usage());
      }
      Resource total = Resource.NONE;
      for (NodeView n : nodes) {
        total = total.plus(n.capacity());
        nodeIds.add(n.nodeId());
        avail.put(n.nodeId(), nonNegative(n.free()));
      }
      this.cluster = total;
      nodeIds.sort(Comparator.naturalOrder());

      Map<String, Resource> markedOnNode = new HashMap<>();
      for (ContainerSnapshot c : containers) {
        boolean marked = alreadyMarked.contains(c.containerId());
        // Already on its way out: its application will not have it, and nobody may take it twice.
        if (marked) victimUsage.computeIfPresent(c.appId(), (k, u) -> u.minus(c.resource()));
        if (!avail.containsKey(c.nodeId())) continue;
        if (c.am()) amsOnNode.merge(c.nodeId(), 1, Integer::sum);
        if (marked) {
          markedOnNode.merge(c.nodeId(), c.resource(), Resource::plus);
        } else {
          candidates.computeIfAbsent(c.nodeId(), k -> new ArrayList<>()).add(c);
        }
      }
      candidates.values().forEach(l -> l.sort(KILL_ORDER));

      Map<String, Resource> promisedOnNode = new HashMap<>();
      for (Reservation r : outstanding) {
        credit.merge(r.appId(), r.amount(), Resource::plus);
        promisedOnNode.merge(r.nodeId(), r.amount(), Resource::plus);
      }
      // Promised space whose containers are already gone shows up as free on the node; hold it back.
      promisedOnNode.forEach((node, promised) -> avail.computeIfPresent(node, (k, free) ->
          shortfall(free, shortfall(promised, markedOnNode.getOrDefault(node, Resource.NONE)))));
    }

    PreemptionPlan run(double utilization) {
      for (StarvedApp entry : starvation.apps()) serve(entry);
      List<Reservation> reservations = new ArrayList<>();
      reserved.forEach((key, amount) -> reservations.add(new Reservation(key.get(0), key.get(1), amount)));
      String reason = String.format(Locale.ROOT,
          "utilization %.3f; %d starved entries; %d decisions preempting %d containers",
          utilization, starvation.apps().size(), decisions.size(),
          decisions.stream().mapToInt(d -> d.containerIds().size()).sum());
      return new PreemptionPlan(true, utilization, reason, decisions, reservations, notPreempted);
    }

    private void serve(StarvedApp entry) {
      AppSnapshot app = appsById.get(entry.appId());
      if (app == null) {
        skip(entry, "the application is not among the running applications");
        return;
      }
      Resource ask = app.largestPendingAsk();
      if (!anyPositive(ask)) {
        skip(entry, "the application asks for no container");
        return;
      }
      // Never more containers than the application still asks for, whatever the entry claims.
      long wanted = Math.max(1, Math.min(containersIn(entry.starvedFor(), ask), containersIn(app.pending(), ask)));
      Resource owed = credit.getOrDefault(app.appId(), Resource.NONE);
      long covered = Math.min(wanted, containersIn(owed, ask));
      if (covered > 0) {
        credit.put(app.appId(), shortfall(owed, ask.times((int) covered)));
        wanted -= covered;
        if (wanted == 0) {
          skip(entry, "space " + owed + " already being freed for it by earlier preemption covers "
              + covered + " x " + ask);
          return;
        }
      }
      List<String> fitsFree = new ArrayList<>();
      for (long i = 0; i < wanted; i++) {
        String freeNode = nodeIds.stream().filter(n -> avail.get(n).fits(ask)).findFirst().orElse(null);
        if (freeNode != null) {
          avail.put(freeNode, avail.get(freeNode).minus(ask));
          fitsFree.add(freeNode);
          continue;
        }
        Option best = null;
        for (String nodeId : nodeIds) {
          Option o = optionOn(nodeId, ask);
          if (o != null && (best == null || BEST_OPTION.compare(o, best) < 0)) best = o;
        }
        if (best == null) {
          skip(entry, "no single node can make room for " + ask + " from preemptable containers above their"
              + " applications' fair shares" + (i > 0 ? " (after " + i + " of " + wanted + ")" : ""));
          break;
        }
        apply(entry, ask, best);
      }
      if (!fitsFree.isEmpty()) {
        skip(entry, fitsFree.size() + " x " + ask + " fit in free space already (" + String.join(", ", fitsFree)
            + "); nothing preempted for them");
      }
    }

    /** The containers to take on one node for one ask, or null when the node cannot make room. */
    private Option optionOn(String nodeId, Resource ask) {
      Resource potential = avail.get(nodeId);
      List<ContainerSnapshot> taken = new ArrayList<>();
      Map<String, Resource> takenByApp = new HashMap<>();
      for (ContainerSnapshot c : candidates.getOrDefault(nodeId, List.of())) {
        if (potential.fits(ask)) break;
        if (!mayTake(c, takenByApp)) continue;
        taken.add(c);
        takenByApp.merge(c.appId(), c.resource(), Resource::plus);
        potential = potential.plus(c.resource());
      }
      if (!potential.fits(ask) || taken.isEmpty()) return null;

      // Trim what the ask does not need: AMs first, then the oldest of the rest.
      List<ContainerSnapshot> trimOrder = new ArrayList<>(taken);
      trimOrder.sort(Comparator.comparing(ContainerSnapshot::am).reversed()
          .thenComparing(Comparator.comparing((ContainerSnapshot c) -> taken.indexOf(c)).reversed()));
      List<ContainerSnapshot> kept = new ArrayList<>(taken);
      for (ContainerSnapshot c : trimOrder) {
        Resource without = potential.minus(c.resource());
        if (without.fits(ask)) {
          kept.remove(c);
          potential = without;
        }
      }
      int ams = (int) kept.stream().filter(ContainerSnapshot::am).count();
      return new Option(nodeId, List.copyOf(kept), ams, amsOnNode.getOrDefault(nodeId, 0));
    }

    private boolean mayTake(ContainerSnapshot c, Map<String, Resource> takenByApp) {
      if (chosen.contains(c.containerId()) || starvedIds.contains(c.appId())) return false;
      AppSnapshot victim = appsById.get(c.appId());
      if (victim == null || !preemptable.getOrDefault(victim.queuePath(), false)) return false;
      Resource fairShare = shares.apps().get(c.appId());
      if (fairShare == null) return false;
      Resource after = victimUsage.get(c.appId())
          .minus(takenByApp.getOrDefault(c.appId(), Resource.NONE))
          .minus(c.resource());
      if (after.isNegative()) return false;
      return !StarvationMath.isBelow(leaves.get(victim.queuePath()).policy(), cluster, after, fairShare);
    }

    private void apply(StarvedApp entry, Resource ask, Option option) {
      Resource freeBefore = avail.get(option.nodeId());
      Map<String, List<ContainerSnapshot>> byApp = new LinkedHashMap<>();
      Resource freed = Resource.NONE;
      for (ContainerSnapshot c : option.chosen()) {
        byApp.computeIfAbsent(c.appId(), k -> new ArrayList<>()).add(c);
        freed = freed.plus(c.resource());
        chosen.add(c.containerId());
      }
      List<Victim> victims = new ArrayList<>();
      for (Map.Entry<String, List<ContainerSnapshot>> e : byApp.entrySet()) {
        Resource taken = e.getValue().stream().map(ContainerSnapshot::resource).reduce(Resource.NONE, Resource::plus);
        Resource before = victimUsage.get(e.getKey());
        Resource after = before.minus(taken);
        victimUsage.put(e.getKey(), after);
        victims.add(new Victim(e.getKey(), appsById.get(e.getKey()).queuePath(),
            e.getValue().stream().map(ContainerSnapshot::containerId).toList(),
            (int) e.getValue().stream().filter(ContainerSnapshot::am).count(), taken,
            shares.apps().get(e.getKey()), before, after));
      }
      avail.put(option.nodeId(), nonNegative(freeBefore.plus(freed).minus(ask)));
      reserved.merge(List.of(option.nodeId(), entry.appId()), ask, Resource::plus);

      Starvation.StarvedQueue queue =
          entry.kind() == Kind.MIN_SHARE ? starvation.queue(entry.queuePath()).orElse(null) : null;
      List<String> ids = option.chosen().stream().map(ContainerSnapshot::containerId).toList();
      decisions.add(new PreemptionDecision(entry.appId(), option.nodeId(), ids, freed,
          describe(entry, ask, option.nodeId(), ids, freed, freeBefore, victims),
          new Reason(entry, queue, ask, freeBefore, victims)));
    }

    private static String describe(StarvedApp entry, Resource ask, String nodeId, List<String> ids, Resource freed,
        Resource freeBefore, List<Victim> victims) {
      String from = victims.stream()
          .map(v -> String.format(Locale.ROOT, "%s %s -> %s (fair share %s%s)", v.appId(), v.usageBefore(),
              v.usageAfter(), v.fairShare(), v.amContainers() > 0 ? ", " + v.amContainers() + " AM" : ""))
          .collect(Collectors.joining("; "));
      return String.format(Locale.ROOT,
          "preempt %s on %s, freeing %s beside %s free, so that %s gets a %s container there (%s starvation: %s);"
              + " taken from %s",
          ids, nodeId, freed, freeBefore, entry.appId(), ask, entry.kind(), entry.reason(), from);
    }

    private void skip(StarvedApp entry, String why) {
      notPreempted.add(new NotPreempted(entry.appId(), entry.kind(), why));
    }
  }
}
