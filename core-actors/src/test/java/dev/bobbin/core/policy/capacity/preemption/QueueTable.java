package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacitySettings;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.OrderingPolicy;
import dev.bobbin.core.policy.capacity.QueueCapacity;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A queue tree with its applications, laid out as rows of one number per queue, the way Hadoop's
 * policy tests lay out theirs: queues in depth-first order, each row giving the root first.
 *
 * <ul>
 *   <li>{@code guaranteed} and {@code maximum}: absolute resources (0 guaranteed is a 0 % queue);
 *       the root's guarantee is the cluster.
 *   <li>{@code used}, {@code pending}, {@code reserved}: each leaf's load as preemption reads it
 *       (a parent's usage must be its children's sum; the root's is not read, as it is not by the policy).
 *   <li>{@code apps}: how many applications a leaf has, sharing its usage and reservations in
 *       equal parts rounded up; {@code granularity}: the size of their containers.
 *   <li>{@code children}: how many children a queue has; 0 for a leaf.
 * </ul>
 *
 * <p>Queues are named {@code root.a}, {@code root.a.b}, ... by their place in the rows (the second
 * is {@code a}, the third {@code b}); applications are numbered from 0 in the order of the leaves.
 * Numbers are memory and vcores alike, so {@code 40} is {@code <memory:40, vCores:40>}.
 */
final class QueueTable {
  private final Resource[] guaranteed;
  private final Resource[] maximum;
  private final Resource[] used;
  private final Resource[] pending;
  private final Resource[] reserved;
  private final int[] apps;
  private final Resource[] granularity;
  private final int[] children;
  private ResourceMath math = ResourceMath.DEFAULT;
  private final Set<String> preemptionDisabled = new HashSet<>();
  private final Map<String, Integer> priorities = new HashMap<>();
  private boolean amContainers;
  private boolean hadoopNames;
  private final Map<String, Resource[]> explicitContainers = new HashMap<>();
  private float amPercent;

  private QueueTable(Resource[] guaranteed, Resource[] maximum, Resource[] used, Resource[] pending, Resource[] reserved,
      int[] apps, Resource[] granularity, int[] children) {
    this.guaranteed = guaranteed;
    this.maximum = maximum;
    this.used = used;
    this.pending = pending;
    this.reserved = reserved;
    this.apps = apps;
    this.granularity = granularity;
    this.children = children;
  }

  static QueueTable of(int[][] rows) {
    return new QueueTable(res(rows[0]), res(rows[1]), res(rows[2]), res(rows[3]), res(rows[4]), rows[5], res(rows[6]),
        rows[7]);
  }

  /** Resources as {@code "memory:vcores"}, for the dominant resource calculator. */
  static QueueTable of(String[] guaranteed, int[] maximum, String[] used, String[] pending, String[] reserved,
      int[] apps, String[] granularity, int[] children) {
    return new QueueTable(res(guaranteed), res(maximum), res(used), res(pending), res(reserved), apps,
        res(granularity), children).math(ResourceMath.DOMINANT);
  }

  QueueTable math(ResourceMath m) {
    math = m;
    return this;
  }

  /** {@code disable_preemption} on the queue; its descendants inherit it. */
  QueueTable disablePreemption(String path) {
    preemptionDisabled.add(path);
    return this;
  }

  /** Parents order their children by priority (as all of Hadoop's policy tests do) with these priorities. */
  QueueTable priority(String path, int priority) {
    priorities.put(path, priority);
    return this;
  }

  /**
   * Names queues as Hadoop's tests do ({@code root.queueA}, {@code root.queueA.queueB}): the order
   * in which leaves are visited follows their paths' hashes.
   */
  QueueTable hadoopQueueNames() {
    hadoopNames = true;
    return this;
  }

  /**
   * The containers of a leaf's (only) application, whatever its usage: {@code count} of {@code size}
   * ({@code "memory:vcores"}). Its usage, as preemption reads it, stays the table's.
   */
  QueueTable containers(String leafPath, int count, String size) {
    explicitContainers.put(leafPath, new Resource[] {res(new String[] {size})[0], new Resource(count, 0)});
    return this;
  }

  /** Each application's first container is its AM container. */
  QueueTable withAmContainers() {
    amContainers = true;
    return this;
  }

  /** {@code maximum-am-resource-percent} of every leaf; 0 unless set, as in Hadoop's mocked leaves. */
  QueueTable amPercent(float fraction) {
    amPercent = fraction;
    return this;
  }

  Scenario build() {
    List<String> paths = paths();
    Resource cluster = guaranteed[0];
    CapacityQueueSpec root = spec(paths, 0, 0, "root", false);
    CapacityTree tree = CapacityTree.compute(root, cluster, CapacitySettings.defaults(math));

    Map<String, LeafLoad> loads = new LinkedHashMap<>();
    List<AppSnapshot> appList = new ArrayList<>();
    List<CandidateContainer> containers = new ArrayList<>();
    List<ReservedContainer> reservations = new ArrayList<>();
    int appNumber = 0;
    for (int i = 0; i < paths.size(); i++) {
      String path = paths.get(i);
      if (children[i] > 0) continue;
      loads.put(path, new LeafLoad(used[i], reserved[i], pending[i],
          ResourceMath.subtractNonNegative(pending[i], reserved[i])));
      if (apps[i] == 0) continue;
      Resource appUsed = math.divideAndCeil(used[i], apps[i]);
      Resource appPending = math.divideAndCeil(pending[i], apps[i]);
      Resource appReserved = math.divideAndCeil(reserved[i], apps[i]);
      for (int a = 0; a < apps[i]; a++, appNumber++) {
        String appId = appId(appNumber);
        String attempt = Ids.attemptId(appId, 1);
        appList.add(new AppSnapshot(appId, attempt, path, 0, appNumber, appUsed, Resource.NONE, appPending, Resource.NONE));
        int sequence = 0;
        for (Resource r = Resource.NONE; math.lessThan(cluster, r, appReserved); r = r.plus(granularity[i])) {
          reservations.add(new ReservedContainer(Ids.containerId(attempt, 0, sequence++), appId, "n1:1",
              granularity[i]));
        }
        Resource[] explicit = explicitContainers.get(path);
        Resource size = explicit == null ? granularity[i] : explicit[0];
        int live = 0;
        for (Resource r = Resource.NONE; explicit == null ? math.lessThan(cluster, r, appUsed)
            : live < explicit[1].memory(); r = r.plus(size)) {
          boolean am = amContainers && live++ == 0;
          String id = Ids.containerId(attempt, 0, sequence++);
          containers.add(new CandidateContainer(new ContainerSnapshot(id, appId, "n1:1", size, am, 0), am ? 0 : 1, 0));
        }
      }
    }
    checkParentsAddUp(paths);
    return new Scenario(tree, loads, appList, containers, reservations);
  }

  static String appId(int n) {
    return Ids.applicationId(3141592653L, n);
  }

  private CapacityQueueSpec spec(List<String> paths, int i, int parent, String path, boolean inheritedDisabled) {
    boolean disabled = inheritedDisabled || preemptionDisabled.contains(path);
    CapacityQueueSpec.Builder b = CapacityQueueSpec.builder(path).disablePreemption(disabled)
        .priority(priorities.getOrDefault(path, 0)).maximumAmResourcePercent(amPercent);
    if (i > 0) {
      boolean limited = maximum[i].memory() < maximum[parent].memory();
      if (guaranteed[i].memory() == 0 && limited) {
        throw new IllegalArgumentException(path + ": a queue guaranteed nothing takes its parent's maximum here");
      }
      b.capacity(guaranteed[i].memory() == 0 ? QueueCapacity.percent(0f) : QueueCapacity.absolute(guaranteed[i]));
      if (limited) b.maximumCapacity(QueueCapacity.absolute(maximum[i]));
    }
    if (children[i] > 0) {
      b.orderingPolicy(OrderingPolicy.PRIORITY_UTILIZATION);
      for (int c : childIndexes(i)) b.child(spec(paths, c, i, paths.get(c), disabled));
    }
    return b.build();
  }

  /** Paths in row order: each queue's parent is the nearest earlier queue with children still to place. */
  private List<String> paths() {
    List<String> out = new ArrayList<>();
    Deque<Integer> open = new ArrayDeque<>();
    out.add("root");
    for (int k = 0; k < children[0]; k++) open.addLast(0);
    for (int i = 1; i < children.length; i++) {
      int parent = open.removeLast();
      char letter = (char) ((hadoopNames ? 'A' : 'a') + i - 1);
      out.add(out.get(parent) + "." + (hadoopNames ? "queue" + letter : String.valueOf(letter)));
      for (int k = 0; k < children[i]; k++) open.addLast(i);
    }
    return out;
  }

  private List<Integer> childIndexes(int parent) {
    List<Integer> out = new ArrayList<>();
    List<String> paths = paths();
    for (int i = 1; i < paths.size(); i++) {
      String p = paths.get(i);
      if (p.substring(0, p.lastIndexOf('.')).equals(paths.get(parent))) out.add(i);
    }
    return out;
  }

  private void checkParentsAddUp(List<String> paths) {
    for (int i = 1; i < paths.size(); i++) {
      if (children[i] == 0) continue;
      Resource sum = Resource.NONE;
      for (int c : childIndexes(i)) sum = sum.plus(used[c]);
      if (sum.memory() != used[i].memory()) {
        throw new IllegalArgumentException(paths.get(i) + " uses " + used[i] + " but its children " + sum);
      }
    }
  }

  private static Resource[] res(int[] row) {
    Resource[] out = new Resource[row.length];
    for (int i = 0; i < row.length; i++) out[i] = new Resource(Math.max(row[i], 0), Math.max(row[i], 0));
    return out;
  }

  private static Resource[] res(String[] row) {
    Resource[] out = new Resource[row.length];
    for (int i = 0; i < row.length; i++) {
      String[] parts = row[i].split(":");
      long memory = Math.max(Long.parseLong(parts[0]), 0);
      out[i] = new Resource(memory, parts.length > 1 ? Integer.parseInt(parts[1]) : 0);
    }
    return out;
  }

  /** What a table describes, ready for the policy. */
  record Scenario(CapacityTree tree, Map<String, LeafLoad> loads, List<AppSnapshot> apps,
      List<CandidateContainer> containers, List<ReservedContainer> reservations) {

    IdealAssignment ideal(ProportionalPreemptionSettings s) {
      return IdealAssignment.compute(tree, loads, s);
    }

    VictimSelection.Selection select(ProportionalPreemptionSettings s) {
      return VictimSelection.select(tree, ideal(s), apps, containers, reservations);
    }

    /** How many containers and reservations of application {@code n} one selection takes. */
    int taken(ProportionalPreemptionSettings s, int n) {
      return taken(select(s), n);
    }

    static int taken(VictimSelection.Selection selection, int n) {
      String app = appId(n);
      return (int) selection.victims().stream().filter(v -> v.appId().equals(app)).count();
    }

    PreemptionRound.Input input() {
      return new PreemptionRound.Input(tree, apps, containers, reservations, Map.of(), UserHeadroom.UNLIMITED);
    }

    /** A round over the table's loads, which may differ from the applications' in how they split. */
    PreemptionRound.Result round(ProportionalPreemptionSettings s, Map<String, Long> marks, long now) {
      return PreemptionRound.run(input(), loads, s, marks, now);
    }
  }
}
