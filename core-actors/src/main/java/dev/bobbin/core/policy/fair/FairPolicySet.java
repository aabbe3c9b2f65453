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
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
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
 * at run time, the latest shares, the starvation state ({@link StarvationState}: clocks, last
 * computed starvation, recheck times), the space preemption freed for starved applications, and
 * what the assignment hands from one pass to the next ({@link FairPlacing.State}: delay scheduling
 * per request and node reservations); the decisions come from the pure functions of this package.
 *
 * <p>None of the assignment's state is journalled. A scheduler that takes over starts with no
 * delays counted and no nodes reserved, as a restarted Hadoop ResourceManager does: a request may
 * wait through its delay once more, and a big request reserves a node again at the next pass that
 * offers it one. Neither is a guarantee the journal must keep (no placement depends on it).
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
  /** Null until the first update, which starts it from {@link #restored}. */
  private StarvationState starvation;
  private StarvationClocks restored = StarvationClocks.EMPTY;
  private List<PreemptionPlan.Reservation> reservations = new ArrayList<>();
  private Resource cluster = Resource.NONE;
  /** The step asks are rounded to, Hadoop's increment allocation: reservations start at twice it. */
  private final Resource increment;
  private FairPlacing.State placing = FairPlacing.State.EMPTY;

  /** With Hadoop's default increment allocation, 1024 MB and 1 vcore. */
  public FairPolicySet(FairSetup setup) {
    this(setup, Resource.of(1024, 1));
  }

  /** @param increment the step asks are rounded to (Bobbin's minimum allocation) */
  public FairPolicySet(FairSetup setup, Resource increment) {
    this.setup = setup;
    this.increment = increment;
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

  /** {@inheritDoc} A leaf the configuration names or placement has made. */
  @Override
  public Placement moveTarget(String queue) {
    String path = QueuePath.requested(queue).full();
    if (!known().isLeaf(path)) return new Placement.Rejected("Target queue " + queue + " not found or is not a leaf queue.");
    return new Placement.Placed(path, List.of(), "move");
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

  /**
   * Its holds, delays and node reservations go; a queue made for it alone goes with it, as Hadoop
   * removes empty dynamic queues.
   */
  @Override
  public void forget(String appId) {
    reservations.removeIf(r -> r.appId().equals(appId));
    placing = placing.without(appId);
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
    releaseReservations(view.apps());
    Map<String, String> held = new LinkedHashMap<>();
    for (PreemptionPlan.Reservation r : reservations) held.putIfAbsent(r.nodeId(), r.appId());
    FairAssigner.Outcome o = FairAssigner.assign(root, shares, view.usableNodes(), view.waiting(), view.apps(), held,
        minShareStarved(), placingSettings(), placing, limit);
    placing = o.state();
    return o.plan();
  }

  private FairPlacing.Settings placingSettings() {
    var g = setup.global();
    return FairPlacing.Settings.of(g.localityThresholdNode(), g.localityThresholdRack(), increment);
  }

  /** Applications the last starvation check attributed min-share starvation to: they may reserve nodes. */
  private Set<String> minShareStarved() {
    if (starvation == null) return Set.of();
    Set<String> out = new HashSet<>();
    starvation.apps().forEach((id, s) -> {
      if (!StarvationMath.isNone(s.minShareStarvation())) out.add(id);
    });
    return out;
  }

  /** The node reservations, by node id, as the last pass left them. */
  public Map<String, NodeReservation> nodeReservations() {
    return placing.reservations();
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
   * Recomputes shares for the current cluster and applications and, while preemption is on and the
   * cluster busy enough (Hadoop's {@code shouldAttemptPreemption}), finds who is starved and plans
   * the preemption that serves them. Every starved application is then left out of starvation checks
   * for the recheck delay, whether or not anything could be preempted for it, as Hadoop's preemption
   * thread does. Below the threshold nothing is checked: clocks stay where they were.
   */
  @Override
  public PolicyUpdate update(ClusterView view, long now) {
    List<AppSnapshot> apps = view.apps();
    if (!view.capacity().equals(cluster)) {
      cluster = view.capacity();
      root = FairQueueTree.build(setup.config(), dynamic, cluster);
    }
    shares = FairShareCalculator.compute(root, cluster, apps);
    // Passes run only while something is asked for: an application that withdrew everything would
    // otherwise keep its node reserved, and preemption would not count that node's space.
    Set<String> asking = new HashSet<>();
    for (AppSnapshot a : apps) if (!StarvationMath.isNone(a.pending())) asking.add(a.appId());
    placing = placing.withoutReservationsOf(id -> !asking.contains(id));
    StarvationState current = starvation != null ? starvation : StarvationState.restored(restored, now);
    PreemptionSettings settings = preemption();
    List<Preemption> preemptions = List.of();
    if (settings.shouldAttempt(view.used(), cluster)) {
      Starvation found = StarvationDetector.detect(root, shares, cluster, apps, current, now);
      PreemptionPlan plan = PreemptionPlanner.plan(settings, root, shares, cluster, apps, asks(view.waiting()),
          view.usableNodes(), view.preemptable(), found, view.preempting(), heldAndReserved());
      plan.reservations().forEach(this::hold);
      preemptions = preemptions(plan);
      List<String> served = found.apps().stream().map(Starvation.StarvedApp::appId).toList();
      current = found.state().servedUntil(served, now + settings.recheckDelay().toMillis());
    } else {
      current = StarvationDetector.follow(root, apps, current, now);
    }
    starvation = current;
    return new PolicyUpdate(preemptions, current.clocks(now));
  }

  /**
   * What preemption may not count as free on a node: space held for starved applications, and the
   * containers nodes are reserved for (Hadoop's {@code FSSchedulerNode.getTotalReserved}).
   */
  private List<PreemptionPlan.Reservation> heldAndReserved() {
    if (placing.reservations().isEmpty()) return reservations;
    List<PreemptionPlan.Reservation> out = new ArrayList<>(reservations);
    for (NodeReservation r : placing.reservations().values()) {
      out.add(new PreemptionPlan.Reservation(r.nodeId(), r.appId(), r.size()));
    }
    return out;
  }

  private PreemptionSettings preemption() {
    var g = setup.global();
    return new PreemptionSettings(g.preemptionEnabled(), g.preemptionUtilizationThreshold(), g.waitTimeBeforeKill());
  }

  private static Map<String, List<Ask>> asks(List<AppView> waiting) {
    Map<String, List<Ask>> out = new HashMap<>();
    for (AppView app : waiting) out.put(app.appId(), app.asks());
    return out;
  }

  /** One hold per node and application, in the order they were first made. */
  private void hold(PreemptionPlan.Reservation r) {
    for (int i = 0; i < reservations.size(); i++) {
      PreemptionPlan.Reservation known = reservations.get(i);
      if (known.nodeId().equals(r.nodeId()) && known.appId().equals(r.appId())) {
        reservations.set(i, new PreemptionPlan.Reservation(r.nodeId(), r.appId(), known.amount().plus(r.amount())));
        return;
      }
    }
    reservations.add(r);
  }

  /**
   * Hadoop's {@code FSSchedulerNode.cleanupPreemptionList}, which runs as nodes heartbeat: a hold
   * goes once its application has ended, is no longer starved (usage at or above its fair share and
   * no min-share starvation attributed), or has neither kind of starvation left as last computed.
   * Also, unlike Hadoop, a hold goes when its application asks for nothing: Bobbin keeps a held node
   * for its application alone ({@link FairAssigner}), where Hadoop only lets it choose first.
   */
  private void releaseReservations(List<AppSnapshot> apps) {
    if (reservations.isEmpty()) return;
    Map<String, AppSnapshot> byId = new HashMap<>();
    for (AppSnapshot a : apps) byId.put(a.appId(), a);
    Map<String, QueueSpec> leaves = StarvationMath.leaves(root);
    reservations.removeIf(r -> {
      AppSnapshot app = byId.get(r.appId());
      StarvationState.AppStarvation s = starvation == null ? null : starvation.app(r.appId());
      if (app == null || s == null || StarvationMath.isNone(app.pending())) return true;
      QueueSpec leaf = leaves.get(app.queuePath());
      boolean belowFairShare = leaf != null && StarvationMath.isBelow(leaf.policy(), cluster, app.usage(),
          shares.apps().getOrDefault(app.appId(), Resource.NONE));
      boolean starved = belowFairShare || !StarvationMath.isNone(s.minShareStarvation());
      return !starved || StarvationMath.isNone(s.starvation());
    });
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
    Map<String, FairView.Reserved> reserved = new HashMap<>();
    for (NodeReservation r : placing.reservations().values()) {
      reserved.merge(r.queue(), new FairView.Reserved(r.size(), 1), FairView.Reserved::plus);
    }
    return new FairView(root, shares, cluster, view.leafApps(), reserved);
  }

  /** Taken up by the next update; the rest of the state starts afresh then. */
  @Override
  public void restoreClocks(StarvationClocks saved) {
    restored = saved;
    starvation = null;
  }
}
