package dev.bobbin.core.policy.capacity;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.capacity.CapacityQueue;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.core.policy.ApplicationPriorities;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.core.policy.capacity.preemption.PreemptionRound;
import dev.bobbin.core.policy.capacity.preemption.ReservedContainer;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hadoop's CapacityScheduler as a policy set: placement by queue mappings, admission by queue state
 * and {@code maximum-applications}, queue ACLs, activation under the AM resource limits, and
 * container assignment by guaranteed capacity, elasticity and user limits ({@link CapacityAssigner}).
 * Between passes it keeps the configuration, each followed application's queue, and which
 * applications are activated ({@link AppActivations}); the capacities are computed afresh against
 * the cluster each pass.
 */
public final class CapacityPolicySet implements PolicySet {
  private CapacitySchedulerConfig config;
  private CapacitySpecs specs;
  private LeafAdmission admission;
  private QueueAcls acls;
  /** The queue of each followed application. */
  private final Map<String, QueuePath> appQueues = new HashMap<>();
  private final AppActivations activations = new AppActivations();
  private CapacityPreemption preemption;
  /** Each leaf's maximum-allocation, inherited down the tree. */
  private Map<String, Resource> maximumAllocations;
  /** Missed opportunities and node reservations, as the last pass left them; not journalled. */
  private CapacityPlacing.State placing = CapacityPlacing.State.EMPTY;

  /** @throws SettingsException naming the key of what the policy cannot honour */
  public CapacityPolicySet(CapacitySchedulerConfig config) {
    swap(config, CapacitySpecs.of(config));
  }

  private void swap(CapacitySchedulerConfig next, CapacitySpecs nextSpecs) {
    config = next;
    specs = nextSpecs;
    admission = new LeafAdmission(nextSpecs);
    acls = QueueAcls.of(next);
    activations.queuesChanged();
    maximumAllocations = maximumAllocations(nextSpecs);
    if (preemption == null) {
      preemption = new CapacityPreemption(next.preemption());
    } else {
      preemption.configure(next.preemption());
    }
  }

  @Override
  public Placement place(String requestedQueue, String user, List<String> groups) {
    return CapacityPlacement.place(config, requestedQueue, user, groups);
  }

  /** {@inheritDoc} A full path, a path below root or a leaf's unique name, as Hadoop resolves it. */
  @Override
  public Placement moveTarget(String queue) {
    Optional<CapacityQueue> q = CapacityPlacement.resolve(config, queue);
    if (q.isEmpty()) return new Placement.Rejected("The specified Queue: " + queue + " doesn't exist");
    if (!q.get().isLeaf()) return new Placement.Rejected("The specified Queue: " + queue + " is not a Leaf Queue.");
    return new Placement.Placed(q.get().path().full(), List.of(), "move");
  }

  @Override
  public AdmissionTerms admission(QueuePath leaf) {
    return admission.terms(leaf.full());
  }

  /** Hadoop's {@code maximum-applications}: running and pending applications in the whole cluster. */
  @Override
  public Optional<AdmissionTerms> clusterAdmission() {
    return Optional.of(new AdmissionTerms(false, specs.settings().maximumSystemApplications()));
  }

  @Override
  public QueueAcls queueAcls() {
    return acls;
  }

  private static Map<String, Resource> maximumAllocations(CapacitySpecs specs) {
    // A queue's maximum allocation does not depend on the cluster's size.
    CapacityTree tree = CapacityTree.compute(specs.root(), Resource.NONE, specs.settings());
    Map<String, Resource> out = new HashMap<>();
    for (QueueCapacities q : tree.queues()) {
      if (tree.spec(q.path()).isLeaf()) out.put(q.path(), q.maximumAllocation());
    }
    return out;
  }

  /** The leaf's maximum-allocation caps the scheduler's maximum. */
  @Override
  public AllocationLimits allocationLimits(AllocationLimits scheduler, QueuePath leaf) {
    boolean memoryOnly = specs.settings().resourceMath() == ResourceMath.DEFAULT;
    Resource queueMaximum = maximumAllocations.get(leaf.full());
    Resource max = scheduler.maximum();
    if (queueMaximum != null) {
      max = new Resource(Math.min(max.memory(), queueMaximum.memory()), Math.min(max.vCores(), queueMaximum.vCores()));
    }
    return new AllocationLimits(scheduler.minimum(), max, memoryOnly);
  }

  /** Under the default calculator an AM container, like any, gets one virtual core. */
  @Override
  public Resource amContainer(Resource asked, QueuePath leaf) {
    return specs.settings().resourceMath() == ResourceMath.DEFAULT ? new Resource(asked.memory(), 1) : asked;
  }

  /** Under the default calculator a node takes containers while its memory lasts, as in Hadoop. */
  @Override
  public boolean fitsOnNode(Resource size, Resource free) {
    return specs.settings().resourceMath().fitsIn(size, free);
  }

  @Override
  public void follow(String appId, QueuePath queue) {
    QueuePath before = appQueues.put(appId, queue);
    // A moved application's reservations and delays were its old queue's: it starts afresh in the new one.
    if (before != null && !before.equals(queue)) placing = placing.without(appId);
  }

  @Override
  public void forget(String appId) {
    appQueues.remove(appId);
    activations.forget(appId);
    placing = placing.without(appId);
  }

  @Override
  public AllocationPlan assign(ClusterView cluster, int limit) {
    CapacityTree tree = tree(cluster);
    Map<String, String> users = cluster.users();
    activations.update(tree, cluster, used(tree, cluster.apps()), users, specs.maxApplicationPriority());
    CapacityAssigner.Outcome o = CapacityAssigner.assign(tree, cluster.usableNodes(), new CapacityAssigner.Demand(
        cluster.waiting(), cluster.apps(), users, activations.activated(), specs),
        CapacityPlacing.Settings.of(config.schedulerWide()), placing, limit);
    placing = o.state();
    return o.plan();
  }

  private CapacityTree tree(ClusterView cluster) {
    return CapacityTree.compute(specs.root(), cluster.capacity(), specs.settings());
  }

  /** What every queue uses: its leaves' applications' usage, rolled up. */
  static Map<String, Resource> used(CapacityTree tree, List<AppSnapshot> apps) {
    Map<String, Resource> leafUsed = new HashMap<>();
    for (AppSnapshot a : apps) {
      if (tree.contains(a.queuePath()) && tree.spec(a.queuePath()).isLeaf()) {
        leafUsed.merge(a.queuePath(), a.usage(), Resource::plus);
      }
    }
    return tree.rollUp(leafUsed);
  }

  @Override
  public void placed(Assignment assignment) {}

  /** The node reservations, by node id, as the last pass left them. */
  public Map<String, CapacityReservation> nodeReservations() {
    return placing.reservations();
  }

  /**
   * A round of proportional capacity preemption when {@code yarn.resourcemanager.scheduler.monitor.enable}
   * is on ({@link CapacityPreemption}); nothing otherwise.
   */
  @Override
  public PolicyUpdate update(ClusterView cluster, long now) {
    List<ReservedContainer> reserved = new ArrayList<>();
    // A node holds one reservation: its node id names it.
    placing.reservations().forEach((node, r) -> reserved.add(new ReservedContainer(node, r.appId(), node, r.size())));
    PolicyUpdate update = preemption.round(tree(cluster), cluster, activations.activated(), reserved, now);
    placing = placing.withoutReservationsOn(preemption.reservationsCancelled());
    return update;
  }

  /** The monitoring interval while preemption is on. */
  @Override
  public Optional<Duration> updateInterval() {
    return preemption.enabled() ? Optional.of(preemption.interval()) : Optional.empty();
  }

  /** The rounds kill a marked container when they choose it again after max_wait_before_kill. */
  @Override
  public boolean decidesKills() {
    return true;
  }

  /** The last preemption round, null before the first or while preemption is off. */
  PreemptionRound.Result lastRound() {
    return preemption.last();
  }

  @Override
  public Duration waitBeforeKill() {
    return config.preemption().maxWaitBeforeKill();
  }

  /**
   * A new configuration, checked as Hadoop's refresh of the queues checks it against the running
   * one: a queue leaves the tree only STOPPED and drained, a leaf holding applications does not
   * become a parent. Refused, the running configuration stays.
   */
  @Override
  public Reconfiguration reconfigure(PolicyConfig next) {
    if (next.capacity() == null) {
      return new Reconfiguration.Rejected(List.of("the capacity policy needs a capacity scheduler configuration"));
    }
    CapacitySpecs nextSpecs;
    try {
      nextSpecs = CapacitySpecs.of(next.capacity());
      next.capacity().checkReplacement(config, queuesWithApps());
    } catch (SettingsException e) {
      return new Reconfiguration.Rejected(List.of(e.getMessage()));
    }
    swap(next.capacity(), nextSpecs);
    return new Reconfiguration.Accepted("Queues refreshed: "
        + next.capacity().leafQueues().stream().map(q -> q.path().full()).toList());
  }

  private Set<String> queuesWithApps() {
    Set<String> out = new HashSet<>();
    appQueues.values().forEach(q -> out.add(q.full()));
    return out;
  }

  @Override
  public SchedulerView view(ClusterView cluster) {
    CapacityTree tree = tree(cluster);
    return CapacityViews.of(tree, cluster, used(tree, cluster.apps()), placing.reservations().values(), activations,
        admission, this::acl);
  }

  /** yarn.cluster.max-application-priority caps; a leaf's default-application-priority fills in, 0 for a queue it does not know. */
  @Override
  public ApplicationPriorities priorities() {
    CapacitySchedulerConfig c = config;
    return new ApplicationPriorities() {
      @Override
      public int maxPriority() {
        return c.schedulerWide().maxApplicationPriority();
      }

      @Override
      public int defaultPriority(QueuePath leaf) {
        CapacityQueue q = c.queues().get(leaf.full());
        return q == null ? 0 : q.defaultApplicationPriority();
      }
    };
  }

  /** The queue's own ACLs as Hadoop's view shows them: submit, then administer. */
  private List<String> acl(String path) {
    CapacityQueue q = config.queues().get(path);
    return List.of(q.aclSubmitApplications().toString(), q.aclAdministerQueue().toString());
  }

  /** Why an application waits for activation, in Hadoop's words; empty once it is activated. */
  @Override
  public Optional<String> diagnostics(String appId) {
    return Optional.ofNullable(activations.diagnostics(appId));
  }

  /** The capacity policy keeps no starvation clocks. */
  @Override
  public void restoreClocks(StarvationClocks clocks) {}
}
