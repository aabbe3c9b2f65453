package dev.bobbin.core.policy.fair;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.config.fair.KnownQueues;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.config.fair.QueuePlacement;
import dev.bobbin.config.fair.QueueType;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hadoop's FairScheduler as a policy set: placement by the allocation file's rules, fair shares,
 * starvation and preemption. Between passes it keeps the configuration, the queues placement made
 * at run time, the latest shares, the starvation clocks and the space preemption freed for starved
 * applications; the decisions come from the pure functions of this package.
 */
public final class FairPolicySet implements PolicySet {
  private FairSetup setup;
  private QueueAcls acls;
  /** The queue of each followed application. */
  private final Map<String, QueuePath> appQueues = new HashMap<>();
  /** How many followed applications are in each queue the configuration does not name. */
  private final Map<QueuePath, Integer> unconfiguredLeaves = new HashMap<>();
  /** The queues the configuration names. */
  private KnownQueues configured;
  /** Queues of followed applications that the configuration does not name, and their parents, by full path. */
  private final Map<String, QueueType> dynamic = new LinkedHashMap<>();
  private QueueSpec root;
  private FairShares shares = new FairShares(Map.of(), Map.of());
  private StarvationClocks clocks = StarvationClocks.EMPTY;
  private List<PreemptionPlan.Reservation> reservations = new ArrayList<>();
  private Resource cluster = Resource.NONE;

  public FairPolicySet(FairSetup setup) {
    this.setup = setup;
    this.acls = QueueAcls.of(setup.config());
    this.configured = KnownQueues.of(setup.config());
    this.root = FairQueueTree.build(setup.config(), dynamic, cluster);
  }

  @Override
  public Placement place(String requestedQueue, String user, List<String> groups) {
    Placement p = QueuePlacement.place(setup.config().placementPolicyOr(setup.global()), requestedQueue, user,
        groups, known());
    return p instanceof Placement.Rejected r
        ? new Placement.Rejected("Application rejected by queue placement: " + r.reason())
        : p;
  }

  private KnownQueues known() {
    Set<String> leaves = new HashSet<>(configured.leaves());
    Set<String> parents = new HashSet<>(configured.parents());
    dynamic.forEach((path, type) -> (type == QueueType.LEAF ? leaves : parents).add(path));
    return new KnownQueues(leaves, parents, dynamic.keySet());
  }

  /** Hadoop's Fair Scheduler has no queue states or admission limits: every leaf takes submissions. */
  @Override
  public AdmissionTerms admission(QueuePath leaf) {
    return AdmissionTerms.OPEN;
  }

  @Override
  public QueueAcls queueAcls() {
    return acls;
  }

  /**
   * The application's queue exists from now on: one the configuration does not name is made, with
   * the parents it lacks, as Hadoop's placement creates queues.
   */
  @Override
  public void follow(String appId, QueuePath queue) {
    QueuePath before = appQueues.put(appId, queue);
    if (queue.equals(before)) return;
    boolean changed = before != null && leave(before);
    if (!configured.exists(queue.full()) && unconfiguredLeaves.merge(queue, 1, Integer::sum) == 1) changed = true;
    if (changed) rebuildDynamicQueues();
  }

  /** Its reservations go; a queue made for it alone goes with it, as Hadoop removes empty dynamic queues. */
  @Override
  public void forget(String appId) {
    reservations.removeIf(r -> r.appId().equals(appId));
    QueuePath queue = appQueues.remove(appId);
    if (queue != null && leave(queue)) rebuildDynamicQueues();
  }

  /** @return whether an unconfigured queue lost its last application */
  private boolean leave(QueuePath queue) {
    Integer left = unconfiguredLeaves.computeIfPresent(queue, (q, n) -> n == 1 ? null : n - 1);
    return left == null && !configured.exists(queue.full());
  }

  /**
   * The queues the configuration does not name that followed applications are in, with their
   * parents; run only when that set of queues changes. A path that is a leaf for one application
   * and a parent of another's queue is a parent (the queue entities refuse such a placement; a
   * member that placed before it heard of the other application is the only way there).
   */
  private void rebuildDynamicQueues() {
    Map<String, QueueType> next = new LinkedHashMap<>();
    for (QueuePath leaf : unconfiguredLeaves.keySet()) {
      next.putIfAbsent(leaf.full(), QueueType.LEAF);
      for (QueuePath q = leaf.parent(); q != null && !configured.exists(q.full()); q = q.parent()) {
        next.put(q.full(), QueueType.PARENT);
      }
    }
    if (next.equals(dynamic)) return;
    dynamic.clear();
    dynamic.putAll(next);
    root = FairQueueTree.build(setup.config(), dynamic, cluster);
  }

  @Override
  public AllocationPlan assign(ClusterView view, int limit) {
    Map<String, String> reserved = new LinkedHashMap<>();
    for (PreemptionPlan.Reservation r : reservations) reserved.putIfAbsent(r.nodeId(), r.appId());
    return FairAssigner.assign(root, shares, view.usableNodes(), view.waiting(), view.apps(), reserved, limit);
  }

  /** A placement on a reserved node uses up that reservation. */
  @Override
  public void placed(Assignment a) {
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

  /**
   * Recomputes shares for the current cluster and applications, finds who is starved, and plans
   * the preemption that serves them; the plan's reservations are kept until served.
   */
  @Override
  public PolicyUpdate update(ClusterView view, long now) {
    List<AppSnapshot> apps = view.apps();
    if (!view.capacity().equals(cluster)) {
      cluster = view.capacity();
      root = FairQueueTree.build(setup.config(), dynamic, cluster);
    }
    shares = FairShareCalculator.compute(root, cluster, apps);
    dropReservationsWithoutDemand(apps);
    Starvation starvation = StarvationDetector.detect(root, shares, apps, clocks, now);
    clocks = starvation.clocks();
    PreemptionPlan plan = PreemptionPlanner.plan(preemption(), root, shares, apps, view.usableNodes(),
        view.preemptable(), starvation, view.preempting(), reservations);
    reservations.addAll(plan.reservations());
    return new PolicyUpdate(preemptions(plan), clocks);
  }

  private PreemptionSettings preemption() {
    var g = setup.global();
    return new PreemptionSettings(g.preemptionEnabled(), g.preemptionUtilizationThreshold(), g.waitTimeBeforeKill());
  }

  /** Space is held only for applications still waiting for something. */
  private void dropReservationsWithoutDemand(List<AppSnapshot> apps) {
    Set<String> waiting = new HashSet<>();
    for (AppSnapshot a : apps) if (!a.pending().equals(Resource.NONE)) waiting.add(a.appId());
    reservations.removeIf(r -> !waiting.contains(r.appId()));
  }

  private static List<Preemption> preemptions(PreemptionPlan plan) {
    return plan.decisions().stream().map(FairPolicySet::preemption).toList();
  }

  /** A decision as the scheduler carries it out: each victim with the decision's reason and its own numbers. */
  public static Preemption preemption(PreemptionDecision d) {
    List<Preemption.Victim> victims = new ArrayList<>();
    for (PreemptionDecision.Victim v : d.details().victims()) {
      victims.add(new Preemption.Victim(v.appId(), v.containerIds(), d.reason() + "; victim " + v.appId() + " in "
          + v.queuePath() + " has fair share " + v.fairShare() + ", usage " + v.usageBefore() + " -> "
          + v.usageAfter()));
    }
    Starvation.StarvedApp starved = d.details().starved();
    return new Preemption(d.starvedAppId(), starved.queuePath(), starved.kind().name(), d.nodeId(), victims);
  }

  @Override
  public Optional<Duration> updateInterval() {
    return Optional.of(setup.global().updateInterval());
  }

  @Override
  public Duration waitBeforeKill() {
    return setup.global().waitTimeBeforeKill();
  }

  /** A new configuration; the queues applications were placed in that it does not name stay while they hold applications. */
  @Override
  public Reconfiguration reconfigure(PolicyConfig next) {
    if (next.fair() == null) {
      return new Reconfiguration.Rejected(List.of("the fair policy needs a fair queue configuration"));
    }
    setup = next.fair();
    acls = QueueAcls.of(setup.config());
    configured = KnownQueues.of(setup.config());
    unconfiguredLeaves.clear();
    for (QueuePath q : appQueues.values()) {
      if (!configured.exists(q.full())) unconfiguredLeaves.merge(q, 1, Integer::sum);
    }
    dynamic.clear();
    rebuildDynamicQueues();
    root = FairQueueTree.build(setup.config(), dynamic, cluster);
    return new Reconfiguration.Accepted("Queues refreshed: " + setup.config().queues().keySet());
  }

  @Override
  public SchedulerView view(ClusterView view) {
    return new FairView(root, shares, cluster, view.leafApps());
  }

  @Override
  public void restoreClocks(StarvationClocks saved) {
    clocks = saved;
  }
}
