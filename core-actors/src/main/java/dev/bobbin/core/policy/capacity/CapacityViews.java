package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.capacity.ApplicationLimits.AmLimits;
import dev.bobbin.core.policy.capacity.CapacityTree.Utilization;
import dev.bobbin.core.policy.capacity.CapacityView.LeafRow;
import dev.bobbin.core.policy.capacity.CapacityView.QueueRow;
import dev.bobbin.core.policy.capacity.CapacityView.UserRow;
import dev.bobbin.core.policy.capacity.QueueCapacity.Absolute;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Makes the {@link CapacityView} of the queues against the current cluster and applications. */
final class CapacityViews {
  /** Hadoop's web service treats a maximum capacity below this as not set. */
  private static final float EPSILON = 1e-8f;

  private final CapacityTree tree;
  private final ClusterView cluster;
  private final Map<String, Resource> used;
  private final AppActivations activations;
  private final LeafAdmission admission;
  private final Function<String, List<String>> acls;
  private final Map<String, List<AppSnapshot>> appsByLeaf = new HashMap<>();
  private final Map<String, Resource> pendingByApp = new HashMap<>();
  private final Map<String, LeafApps> leafApps;
  /** Per queue, what reserved nodes hold for it and how many there are, its leaves' added up. */
  private final Map<String, Resource> reserved = new HashMap<>();
  private final Map<String, Integer> reservedContainers = new HashMap<>();

  private CapacityViews(CapacityTree tree, ClusterView cluster, Map<String, Resource> used,
      Collection<CapacityReservation> reservations, AppActivations activations, LeafAdmission admission,
      Function<String, List<String>> acls) {
    this.tree = tree;
    this.cluster = cluster;
    this.used = used;
    this.activations = activations;
    this.admission = admission;
    this.acls = acls;
    this.leafApps = cluster.leafApps();
    for (AppSnapshot a : cluster.apps()) appsByLeaf.computeIfAbsent(a.queuePath(), k -> new ArrayList<>()).add(a);
    for (AppView v : cluster.waiting()) pendingByApp.put(v.appId(), CapacityAssigner.pending(v.asks()));
    for (CapacityReservation r : reservations) {
      // One whose application asks for nothing more goes at the next pass; it holds nothing now.
      if (!tree.contains(r.queue()) || !pendingByApp.containsKey(r.appId())) continue;
      for (String q : tree.lineage(r.queue())) {
        reserved.merge(q, r.size(), Resource::plus);
        reservedContainers.merge(q, 1, Integer::sum);
      }
    }
  }

  /**
   * @param used what the queues' containers hold; what their reserved nodes hold is added, as
   *     Hadoop's used resources count reserved containers
   * @param acls a queue's own submit and administer ACLs, as Hadoop writes them
   */
  static CapacityView of(CapacityTree tree, ClusterView cluster, Map<String, Resource> used,
      Collection<CapacityReservation> reservations, AppActivations activations, LeafAdmission admission,
      Function<String, List<String>> acls) {
    return new CapacityView(new CapacityViews(tree, cluster, used, reservations, activations, admission, acls)
        .row(tree.root()));
  }

  private QueueRow row(CapacityQueueSpec spec) {
    String path = spec.path();
    QueueCapacities q = tree.queue(path);
    Resource queueReserved = reserved.getOrDefault(path, Resource.NONE);
    Resource queueUsed = used.getOrDefault(path, Resource.NONE).plus(queueReserved);
    Utilization u = tree.utilization(path, queueUsed);
    List<QueueRow> children = new ArrayList<>();
    int apps = 0;
    int containers = 0;
    int pendingContainers = 0;
    Resource pending = Resource.NONE;
    LeafRow leaf = null;
    if (spec.isLeaf()) {
      List<AppSnapshot> held = appsByLeaf.getOrDefault(path, List.of());
      LeafApps la = leafApps.getOrDefault(path, LeafApps.NONE);
      apps = held.size();
      containers = la.containers();
      pendingContainers = la.pendingContainers();
      for (AppSnapshot a : held) pending = pending.plus(pendingByApp.getOrDefault(a.appId(), Resource.NONE));
      leaf = leaf(spec, held, containers);
    } else {
      for (CapacityQueueSpec c : spec.children()) {
        QueueRow r = row(c);
        children.add(r);
        apps += r.numApplications();
        containers += r.allocatedContainers();
        pendingContainers += r.pendingContainers();
        pending = pending.plus(r.pending());
      }
    }
    boolean root = spec.isRoot();
    String state = q.state() == CapacityQueueState.STOPPED ? (apps > 0 ? "DRAINING" : "STOPPED") : "RUNNING";
    List<String> acl = acls.apply(path);
    return new QueueRow(path, spec.name(), root ? 100f : q.capacity() * 100, u.usedCapacity() * 100,
        root ? 100f : maximumCapacity(q.maximumCapacity()), clamp(q.absoluteCapacity()) * 100,
        clamp(u.absoluteUsedCapacity()) * 100, clamp(q.absoluteMaximumCapacity()) * 100, state, apps, queueUsed,
        pending, containers, pendingContainers, q.guaranteed(), q.maximum(), q.configuredMinimum(),
        q.configuredMaximum(), q.maximumAllocation(), spec.capacity() instanceof Absolute, spec.priority(),
        spec.orderingPolicy().configName(), acl.get(0), acl.get(1), queueReserved,
        reservedContainers.getOrDefault(path, 0), leaf, children);
  }

  private LeafRow leaf(CapacityQueueSpec spec, List<AppSnapshot> held, int containers) {
    String path = spec.path();
    Map<String, String> users = cluster.users();
    Map<String, Resource> userUsed = new LinkedHashMap<>();
    Map<String, Resource> userPending = new HashMap<>();
    Map<String, Resource> userAm = new HashMap<>();
    Map<String, int[]> userApps = new HashMap<>();
    Map<String, Boolean> asking = new HashMap<>();
    int active = 0;
    Resource amUsed = Resource.NONE;
    for (AppSnapshot a : held) {
      String user = users.getOrDefault(a.appId(), "");
      boolean activated = activations.isActivated(a.appId());
      Resource pending = pendingByApp.getOrDefault(a.appId(), Resource.NONE);
      userUsed.merge(user, a.usage(), Resource::plus);
      userPending.merge(user, pending, Resource::plus);
      int[] counts = userApps.computeIfAbsent(user, k -> new int[2]);
      counts[activated ? 0 : 1]++;
      if (activated) {
        active++;
        Resource am = activations.amResource(a);
        amUsed = amUsed.plus(am);
        userAm.merge(user, am, Resource::plus);
        if (!pending.equals(Resource.NONE)) asking.put(user, true);
      }
    }
    List<UserUsage> usage = new ArrayList<>();
    userUsed.forEach((user, r) -> usage.add(new UserUsage(user, r, asking.containsKey(user))));
    UserLimits.Result limits = UserLimits.compute(tree, path, usage, UserLimits.Mode.ACTIVE_USERS);
    AmLimits am = activations.limits(path);
    if (am == null) am = ApplicationLimits.amLimits(tree, path, tree.currentLimit(path, used), asking.size());
    List<UserRow> rows = new ArrayList<>();
    for (UserUsage u : usage) {
      float weight = spec.userWeight(u.user());
      int[] counts = userApps.get(u.user());
      rows.add(new UserRow(u.user(), u.used(), userPending.get(u.user()), counts[0], counts[1],
          userAm.getOrDefault(u.user(), Resource.NONE), UserLimits.limitFor(tree, limits, u.user()),
          ApplicationLimits.userAmLimit(tree, am, weight), weight, u.active()));
    }
    return new LeafRow(active, held.size() - active, containers, admission.maximumApplications(path),
        admission.maximumApplicationsPerUser(path), spec.minimumUserLimitPercent(), spec.userLimitFactor(),
        spec.maximumAmResourcePercent(), am.queueLimit(), amUsed, am.userLimit(), spec.disablePreemption(),
        spec.defaultApplicationPriority(), rows);
  }

  private static float maximumCapacity(float max) {
    return (max < EPSILON || max > 1f ? 1f : max) * 100;
  }

  private static float clamp(float f) {
    return Math.max(0f, Math.min(1f, f));
  }
}
