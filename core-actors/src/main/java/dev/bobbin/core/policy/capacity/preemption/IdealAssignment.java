package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.QueueCapacities;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every queue's ideal assignment and what each over-served leaf gives back in one round, as
 * Hadoop's {@code PreemptableResourceCalculator} computes them.
 *
 * <ol>
 *   <li>Extras: what each queue uses above its guarantee is preemptable, or untouchable in a leaf
 *       with preemption disabled; a parent's untouchable extra is what of its excess its children
 *       cannot give.
 *   <li>Top down, each parent's ideal assignment (the root's is the cluster) is shared among its
 *       children ({@link Fixpoint}): first among those with a guarantee, by their guarantees; what
 *       is left among those without, in equal parts. A queue takes no more than its maximum, its
 *       usage plus its asks beyond reservations, and, for a leaf, the larger of its usage and its
 *       guarantee.
 *   <li>Per level, each queue is to give back its usage above the larger of its ideal assignment and
 *       the smaller of its guarantee and its demand; when the level's queues together are to give
 *       back more than {@code total_preemption_per_round} of the cluster, all of it is scaled down
 *       to that.
 *   <li>A leaf gives back in this round only when its usage is above its guarantee times one plus
 *       {@code max_ignored_over_capacity}, and then its amount times
 *       {@code natural_termination_factor}, rounded up.
 * </ol>
 *
 * <p>Two of Hadoop's ways are kept because its numbers come from them. The queues guaranteed
 * nothing are offered what was left after the first part given to the others, not after all of
 * them, so their ideal assignments can add up with the others' to more than their parent's. And
 * Hadoop offers to queues that are equally under-served in an order it does not fix (it changes
 * from one run of its ResourceManager to the next); here they are offered in configured order, so
 * the result is always one of the results Hadoop can give.
 */
public final class IdealAssignment {
  private final Resource cluster;
  private final Resource totalPreemptionAllowed;
  private final Map<String, QueueAssignment> queues;
  private final List<String> underserved;
  private final List<String> gaining;

  private IdealAssignment(ResourceMath rc, Resource cluster, Resource totalPreemptionAllowed,
      Map<String, QueueAssignment> queues, List<String> underserved) {
    this.cluster = cluster;
    this.totalPreemptionAllowed = totalPreemptionAllowed;
    this.queues = Collections.unmodifiableMap(queues);
    this.underserved = List.copyOf(underserved);
    List<String> more = new ArrayList<>();
    for (QueueAssignment q : queues.values()) {
      if (q.leaf() && rc.greaterThan(cluster, q.idealAssignment(), q.used())) more.add(q.path());
    }
    this.gaining = List.copyOf(more);
  }

  /** @param loads each leaf's load ({@link LeafLoad#of}); a leaf missing from it holds and asks nothing */
  public static IdealAssignment compute(CapacityTree tree, Map<String, LeafLoad> loads,
      ProportionalPreemptionSettings settings) {
    ResourceMath rc = tree.resourceMath();
    Resource cluster = tree.cluster();
    Resource allowed = ResourceMath.multiplyAndRoundDown(cluster, settings.totalPreemptionPerRound());
    Map<String, WorkingQueue> working = new LinkedHashMap<>();
    WorkingQueue root = build(tree, tree.root(), null, loads, working);
    root.updateExtras(rc, cluster);
    root.idealAssigned = root.guaranteed;
    root.initialAssignment = root.guaranteed;
    Set<String> underserved = new LinkedHashSet<>();
    distributeDown(rc, root, allowed, underserved);

    Map<String, QueueAssignment> out = new LinkedHashMap<>();
    for (QueueCapacities q : tree.queues()) {
      WorkingQueue w = working.get(q.path());
      if (w.leaf) w.toObtain = toObtain(rc, cluster, w, settings);
      out.put(q.path(), assignment(rc, cluster, w, settings));
    }
    return new IdealAssignment(rc, cluster, allowed, out, new ArrayList<>(underserved));
  }

  public Resource cluster() {
    return cluster;
  }

  /** {@code total_preemption_per_round} of the cluster, each amount rounded down. */
  public Resource totalPreemptionAllowed() {
    return totalPreemptionAllowed;
  }

  /** Every queue, parents before their children, siblings in configured order. */
  public Map<String, QueueAssignment> queues() {
    return queues;
  }

  public QueueAssignment queue(String path) {
    QueueAssignment q = queues.get(path);
    if (q == null) throw new IllegalArgumentException("no queue " + path);
    return q;
  }

  /** Queues that asked for more than they were given at some point of the sharing, most under-served first. */
  public List<String> underserved() {
    return underserved;
  }

  /** Leaves whose ideal assignment is above what they use: those preemption frees resources for. */
  public List<String> gaining() {
    return gaining;
  }

  private static WorkingQueue build(CapacityTree tree, CapacityQueueSpec spec, CapacityQueueSpec parent,
      Map<String, LeafLoad> loads, Map<String, WorkingQueue> out) {
    QueueCapacities q = tree.queue(spec.path());
    int priority = parent != null && parent.orderingPolicy().respectsPriority() ? spec.priority() : 0;
    LeafLoad load = spec.isLeaf() ? loads.getOrDefault(spec.path(), LeafLoad.NONE) : LeafLoad.NONE;
    if (!spec.isLeaf()) {
      load = new LeafLoad(used(tree, spec, loads), Resource.NONE, Resource.NONE, Resource.NONE);
    }
    WorkingQueue w = new WorkingQueue(spec.path(), spec.isLeaf(), spec.disablePreemption(), priority, q.guaranteed(),
        q.maximum(), q.absoluteCapacity(), load);
    out.put(spec.path(), w);
    for (CapacityQueueSpec child : spec.children()) w.addChild(build(tree, child, spec, loads, out));
    return w;
  }

  private static Resource used(CapacityTree tree, CapacityQueueSpec spec, Map<String, LeafLoad> loads) {
    if (spec.isLeaf()) return loads.getOrDefault(spec.path(), LeafLoad.NONE).used();
    Resource sum = Resource.NONE;
    for (CapacityQueueSpec c : spec.children()) sum = sum.plus(used(tree, c, loads));
    return sum;
  }

  private static void distributeDown(ResourceMath rc, WorkingQueue parent, Resource allowed, Set<String> underserved) {
    if (parent.children.isEmpty()) return;
    shareLevel(rc, parent.children, allowed, parent.idealAssigned, underserved);
    for (WorkingQueue c : parent.children) distributeDown(rc, c, allowed, underserved);
  }

  private static void shareLevel(ResourceMath rc, List<WorkingQueue> level, Resource allowed, Resource total,
      Set<String> underserved) {
    List<WorkingQueue> guaranteed = new ArrayList<>();
    List<WorkingQueue> unguaranteed = new ArrayList<>();
    for (WorkingQueue q : level) {
      (rc.greaterThan(total, q.guaranteed, Resource.NONE) ? guaranteed : unguaranteed).add(q);
    }
    Fixpoint.Unassigned unassigned = new Fixpoint.Unassigned(total);
    Fixpoint.distribute(rc, total, guaranteed, unassigned, false, underserved);
    if (!unguaranteed.isEmpty() && rc.greaterThan(total, unassigned.value, Resource.NONE)) {
      Fixpoint.distribute(rc, total, unguaranteed, unassigned, true, underserved);
    }

    Resource needed = Resource.NONE;
    for (WorkingQueue q : level) {
      if (rc.greaterThan(total, q.used, q.idealAssigned)) needed = needed.plus(q.used.minus(q.idealAssigned));
    }
    float scaling = rc.greaterThan(total, needed, allowed) ? rc.divide(total, allowed, needed) : 1.0f;
    for (WorkingQueue q : level) {
      q.scalingFactor = scaling;
      q.levelPreemptionNeeded = needed;
      q.levelTotal = total;
      q.assignPreemption(scaling, rc, total);
    }
  }

  private static Resource toObtain(ResourceMath rc, Resource cluster, WorkingQueue q,
      ProportionalPreemptionSettings s) {
    if (q.preemptionDisabled || !rc.greaterThan(cluster, q.used, deadZone(q, s))) return Resource.NONE;
    if (!rc.greaterThan(cluster, q.toBePreempted, Resource.NONE)) return q.toBePreempted;
    return rc.multiplyAndNormalizeUp(q.toBePreempted, s.naturalTerminationFactor(), new Resource(1, 1));
  }

  private static Resource deadZone(WorkingQueue q, ProportionalPreemptionSettings s) {
    return ResourceMath.multiplyAndRoundDown(q.guaranteed, 1.0 + s.maxIgnoredOverCapacity());
  }

  private static QueueAssignment assignment(ResourceMath rc, Resource cluster, WorkingQueue q,
      ProportionalPreemptionSettings s) {
    return new QueueAssignment(q.path, q.leaf, q.preemptionDisabled, q.guaranteed, q.maximum, q.used, q.pending,
        q.reserved, q.idealAssigned, q.untouchableExtra, q.preemptableExtra, q.toBePreempted, q.scalingFactor,
        q.toObtain, QueueReasons.describe(rc, cluster, q, deadZone(q, s), s));
  }
}
