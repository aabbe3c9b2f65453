package dev.bobbin.core.scheduler;

import dev.bobbin.config.fair.KnownQueues;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.config.fair.QueuePlacement;
import dev.bobbin.config.fair.QueueType;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.AppSnapshot;
import dev.bobbin.core.policy.fair.ContainerSnapshot;
import dev.bobbin.core.policy.fair.FairAssigner;
import dev.bobbin.core.policy.fair.FairShareCalculator;
import dev.bobbin.core.policy.fair.FairShares;
import dev.bobbin.core.policy.fair.PreemptionPlan;
import dev.bobbin.core.policy.fair.PreemptionPlanner;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.core.policy.fair.Starvation;
import dev.bobbin.core.policy.fair.StarvationClocks;
import dev.bobbin.core.policy.fair.StarvationDetector;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Fair policy's state between the scheduler's passes: the configuration, the queues placement
 * created, the latest shares, the starvation clocks and the space preemption reserved. It calls the
 * pure policies; the scheduler actor acts on what they return.
 */
final class FairScheduling {
  private FairSetup setup;
  private final Map<String, QueueType> dynamic = new LinkedHashMap<>();
  private QueueSpec root;
  private FairShares shares = new FairShares(Map.of(), Map.of());
  private StarvationClocks clocks = StarvationClocks.EMPTY;
  private List<PreemptionPlan.Reservation> reservations = new ArrayList<>();
  private Resource cluster = Resource.NONE;

  FairScheduling(FairSetup setup) {
    this.setup = setup;
    this.root = FairQueueTree.build(setup.config(), dynamic, cluster);
  }

  FairSetup setup() {
    return setup;
  }

  /** A new configuration; queues placement created stay, as they do in Hadoop until removed. */
  void reconfigure(FairSetup next) {
    this.setup = next;
    this.root = FairQueueTree.build(next.config(), dynamic, cluster);
  }

  /** Where an application goes; queues it needs are created. The path has no {@code root.} prefix. */
  Placement place(String requestedQueue, String user) {
    KnownQueues known = KnownQueues.of(setup.config());
    for (var e : dynamic.entrySet()) {
      known = known.with(new Placement.Placed(e.getKey(), List.of(e.getKey()), "dynamic"));
    }
    Placement p = QueuePlacement.place(setup.config().placementPolicyOr(setup.global()), requestedQueue, user,
        List.of(user), known);
    if (p instanceof Placement.Placed placed && !placed.queuesToCreate().isEmpty()) {
      List<String> created = placed.queuesToCreate();
      for (int i = 0; i < created.size(); i++) {
        dynamic.put(created.get(i), created.get(i).equals(placed.queue()) ? QueueType.LEAF : QueueType.PARENT);
      }
      root = FairQueueTree.build(setup.config(), dynamic, cluster);
    }
    return p;
  }

  /** Recomputes shares for the current cluster and applications. */
  FairShares recompute(Resource clusterCapacity, List<AppSnapshot> apps) {
    if (!clusterCapacity.equals(cluster)) {
      cluster = clusterCapacity;
      root = FairQueueTree.build(setup.config(), dynamic, cluster);
    }
    shares = FairShareCalculator.compute(root, cluster, apps);
    return shares;
  }

  /** Starvation and preemption for this pass; the plan's reservations are kept until served. */
  PreemptionPlan preempt(List<AppSnapshot> apps, List<NodeView> nodes, List<ContainerSnapshot> containers,
      Set<String> marked, long now) {
    Starvation starvation = StarvationDetector.detect(root, shares, apps, clocks, now);
    clocks = starvation.clocks();
    PreemptionPlan plan = PreemptionPlanner.plan(setup.preemption(), root, shares, apps, nodes, containers,
        starvation, marked, reservations);
    reservations.addAll(plan.reservations());
    return plan;
  }

  AllocationPlan assign(List<NodeView> nodes, List<AppView> apps, List<AppSnapshot> snapshots, int limit) {
    Map<String, String> reserved = new LinkedHashMap<>();
    for (PreemptionPlan.Reservation r : reservations) reserved.putIfAbsent(r.nodeId(), r.appId());
    return FairAssigner.assign(root, shares, nodes, apps, snapshots, reserved, limit);
  }

  /** A placement on a reserved node uses up that reservation. */
  void placed(Assignment a) {
    List<PreemptionPlan.Reservation> next = new ArrayList<>();
    boolean used = false;
    for (PreemptionPlan.Reservation r : reservations) {
      if (!used && r.nodeId().equals(a.nodeId()) && r.appId().equals(a.appId())) {
        used = true;
        PreemptionPlan.Reservation left = r.afterAllocation(a.capability());
        if (!left.isFulfilled()) next.add(left);
      } else {
        next.add(r);
      }
    }
    reservations = next;
  }

  /** Space is held only for applications still waiting for something. */
  void dropReservationsWithoutDemand(List<AppSnapshot> apps) {
    Set<String> waiting = new java.util.HashSet<>();
    for (AppSnapshot a : apps) if (!a.pending().equals(Resource.NONE)) waiting.add(a.appId());
    reservations.removeIf(r -> !waiting.contains(r.appId()));
  }

  void appEnded(String appId) {
    reservations.removeIf(r -> r.appId().equals(appId));
  }

  void restoreClocks(EpochEntity.Clocks saved) {
    clocks = new StarvationClocks(saved.appsBelowSince(), saved.queuesBelowSince());
  }

  EpochEntity.Clocks clocks() {
    return new EpochEntity.Clocks(clocks.appsBelowSince(), clocks.queuesBelowSince());
  }

  QueueSpec root() {
    return root;
  }

  FairShares shares() {
    return shares;
  }

  Resource cluster() {
    return cluster;
  }
}
