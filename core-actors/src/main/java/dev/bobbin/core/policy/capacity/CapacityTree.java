package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.capacity.QueueCapacity.Absolute;
import dev.bobbin.core.policy.capacity.QueueCapacity.Percent;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every queue's guaranteed and maximum resources against one cluster size, computed down the tree
 * as Hadoop's capacity scheduler does in its default (legacy) queue mode.
 *
 * <ul>
 *   <li>The root holds the whole cluster.
 *   <li>Percentages: {@code absoluteCapacity = capacity/100 x parent's absoluteCapacity} in float
 *       arithmetic (a capacity of 0 leaves it 0), likewise the maximum against the parent's absolute
 *       maximum; the guaranteed resource is the cluster times the absolute capacity, each amount
 *       truncated, and the maximum the cluster times the absolute maximum.
 *   <li>Absolute resources: the guaranteed resource is the configured one, unless the children of a
 *       parent ask for more than it has (by the resource calculator's comparison; for the root,
 *       more than the cluster): then each resource type of every child is scaled by what the parent
 *       has of it over what the children ask of it. The maximum is the smaller of the configured
 *       maximum and the parent's (its configured maximum, else its effective one); a queue with no
 *       maximum takes the parent's. Capacities are then derived: guaranteed over the parent's
 *       guaranteed, maximum over the parent's maximum.
 *   <li>The maximum allocation is the queue's own or its parent's; the state is STOPPED under a
 *       STOPPED ancestor.
 * </ul>
 *
 * <p>Siblings keep the order they were configured in. Like Hadoop, a tree of absolute resources
 * against an empty cluster gets capacities of 0 (or NaN with the dominant calculator).
 */
public final class CapacityTree {
  private final CapacityQueueSpec root;
  private final Resource cluster;
  private final CapacitySettings settings;
  private final Map<String, QueueCapacities> queues = new LinkedHashMap<>();
  private final Map<String, CapacityQueueSpec> specs = new LinkedHashMap<>();
  private final Map<String, String> parents = new LinkedHashMap<>();

  private CapacityTree(CapacityQueueSpec root, Resource cluster, CapacitySettings settings) {
    this.root = root;
    this.cluster = cluster;
    this.settings = settings;
  }

  public static CapacityTree compute(CapacityQueueSpec root, Resource cluster, CapacitySettings settings) {
    if (!root.isRoot()) throw new IllegalArgumentException(root.path() + " is not a root queue");
    CapacityTree tree = new CapacityTree(root, cluster, settings);
    Resource maximumAllocation = tree.maximumAllocation(root, settings.maximumAllocation());
    QueueCapacities top = new QueueCapacities(root.path(), 1f, 1f, 1f, 1f, cluster, cluster, Resource.NONE,
        Resource.NONE, maximumAllocation, root.state(), "the root holds the whole cluster " + cluster);
    tree.add(root, null, top);
    tree.visit(root, top);
    return tree;
  }

  public CapacityQueueSpec root() {
    return root;
  }

  public Resource cluster() {
    return cluster;
  }

  public CapacitySettings settings() {
    return settings;
  }

  public ResourceMath resourceMath() {
    return settings.resourceMath();
  }

  /** Every queue, parents before their children, siblings in configured order. */
  public List<QueueCapacities> queues() {
    return List.copyOf(queues.values());
  }

  public boolean contains(String path) {
    return queues.containsKey(path);
  }

  public QueueCapacities queue(String path) {
    QueueCapacities q = queues.get(path);
    if (q == null) throw new IllegalArgumentException("no queue " + path);
    return q;
  }

  public CapacityQueueSpec spec(String path) {
    queue(path);
    return specs.get(path);
  }

  /** The parent's path, or null for the root. */
  public String parent(String path) {
    queue(path);
    return parents.get(path);
  }

  /** From the root down to {@code path}, both included. */
  public List<String> lineage(String path) {
    List<String> out = new ArrayList<>();
    for (String p = path; p != null; p = parent(p)) out.add(p);
    Collections.reverse(out);
    return out;
  }

  /**
   * What each queue uses, given what the leaves use: a parent uses what its children use. A leaf
   * missing from {@code leafUsed} uses nothing.
   */
  public Map<String, Resource> rollUp(Map<String, Resource> leafUsed) {
    leafUsed.keySet().forEach(p -> {
      if (!spec(p).isLeaf()) throw new IllegalArgumentException(p + " is not a leaf queue");
    });
    Map<String, Resource> used = new LinkedHashMap<>();
    sum(root, leafUsed, used);
    return used;
  }

  /**
   * Used capacity (used over guaranteed) and absolute used capacity (used over the cluster), both
   * in the resource calculator's terms, as Hadoop's {@code CSQueueUtils.updateUsedCapacity}: the
   * guaranteed resource counts as at least the minimum allocation, and an empty cluster gives 0.
   */
  public Utilization utilization(String path, Resource used) {
    ResourceMath rc = settings.resourceMath();
    if (!rc.greaterThan(cluster, cluster, Resource.NONE)) return new Utilization(0f, 0f);
    Resource guaranteed = rc.max(cluster, queue(path).guaranteed(), settings.minimumAllocation());
    return new Utilization(rc.divide(cluster, used, guaranteed), rc.divide(cluster, used, cluster));
  }

  /**
   * How far the queue may grow now (Hadoop's "queue current limit"): from the cluster down, each
   * parent's limit capped at its maximum, less what the parent uses, plus what the child on the way
   * uses, rounded down to the minimum allocation; finally capped at the queue's own maximum rounded
   * down. {@code used} holds every queue's usage ({@link #rollUp}); a queue missing from it uses nothing.
   */
  public Resource currentLimit(String path, Map<String, Resource> used) {
    ResourceMath rc = settings.resourceMath();
    Resource step = settings.minimumAllocation();
    List<String> lineage = lineage(path);
    Resource limit = cluster;
    for (int i = 0; i + 1 < lineage.size(); i++) {
      String parent = lineage.get(i);
      String child = lineage.get(i + 1);
      limit = rc.min(cluster, limit, queue(parent).maximum());
      Resource available = limit.minus(used.getOrDefault(parent, Resource.NONE));
      limit = rc.roundDown(available.plus(used.getOrDefault(child, Resource.NONE)), step);
    }
    return rc.min(cluster, rc.normalizeDown(queue(path).maximum(), step), limit);
  }

  /** @param usedCapacity used over guaranteed; @param absoluteUsedCapacity used over the cluster */
  public record Utilization(float usedCapacity, float absoluteUsedCapacity) {}

  private void visit(CapacityQueueSpec parent, QueueCapacities p) {
    Scale scale = scaleOfChildren(parent, p);
    for (CapacityQueueSpec child : parent.children()) {
      QueueCapacities c = child.capacity() instanceof Absolute ? absolute(child, p, scale) : percent(child, p);
      add(child, parent.path(), c);
      visit(child, c);
    }
  }

  private void add(CapacityQueueSpec spec, String parent, QueueCapacities q) {
    queues.put(spec.path(), q);
    specs.put(spec.path(), spec);
    parents.put(spec.path(), parent);
  }

  private QueueCapacities percent(CapacityQueueSpec q, QueueCapacities p) {
    float capacity = ((Percent) q.capacity()).value() / 100f;
    float maximumCapacity = ((Percent) q.maximumCapacity()).value() / 100f;
    float absolute = capacity > 0f ? capacity * p.absoluteCapacity() : 0f;
    float absoluteMaximum = maximumCapacity > 0f ? maximumCapacity * p.absoluteMaximumCapacity() : 0f;
    Resource guaranteed = ResourceMath.multiplyAndRoundDown(cluster, absolute);
    Resource maximum = ResourceMath.multiplyAndRoundDown(cluster, absoluteMaximum);
    String reason = String.format("capacity %s of %s (absolute %s) = absolute %s, guaranteed %s of cluster %s;"
        + " maximum-capacity %s of %s's maximum (absolute %s) = absolute %s, maximum %s",
        q.capacity(), p.path(), p.absoluteCapacity(), absolute, guaranteed, cluster, q.maximumCapacity(), p.path(),
        p.absoluteMaximumCapacity(), absoluteMaximum, maximum);
    return new QueueCapacities(q.path(), capacity, maximumCapacity, absolute, absoluteMaximum, guaranteed, maximum,
        Resource.NONE, Resource.NONE, maximumAllocation(q, p.maximumAllocation()), state(q, p), reason);
  }

  private QueueCapacities absolute(CapacityQueueSpec q, QueueCapacities p, Scale scale) {
    ResourceMath rc = settings.resourceMath();
    Resource configuredMinimum = ((Absolute) q.capacity()).resource();
    Resource configuredMaximum = configuredMaximum(q, configuredMinimum, p);
    Resource guaranteed = scale.apply(configuredMinimum);
    Resource parentMaximum = p.configuredMaximum().equals(Resource.NONE) ? p.maximum() : p.configuredMaximum();
    Resource maximum = configuredMaximum.equals(Resource.NONE) ? parentMaximum
        : rc.min(cluster, configuredMaximum, parentMaximum);
    float capacity = finite(rc.divide(cluster, guaranteed, p.guaranteed()));
    float maximumCapacity = finite(rc.divide(cluster, maximum, p.maximum()));
    float absolute = capacity * p.absoluteCapacity();
    float absoluteMaximum = maximumCapacity * p.absoluteMaximumCapacity();
    String reason = String.format("capacity %s%s = guaranteed %s, %s of %s's guaranteed %s (absolute %s);"
        + " maximum %s, %s of %s's maximum %s (absolute %s)",
        q.capacity(), scale.describe(p.path()), guaranteed, capacity, p.path(), p.guaranteed(), absolute, maximum,
        maximumCapacity, p.path(), p.maximum(), absoluteMaximum);
    return new QueueCapacities(q.path(), capacity, maximumCapacity, absolute, absoluteMaximum, guaranteed, maximum,
        configuredMinimum, configuredMaximum, maximumAllocation(q, p.maximumAllocation()), state(q, p), reason);
  }

  /** The queue's own absolute maximum; without one, a queue with an absolute capacity takes its parent's. */
  private Resource configuredMaximum(CapacityQueueSpec q, Resource configuredMinimum, QueueCapacities p) {
    ResourceMath rc = settings.resourceMath();
    Resource parentMaximum = p.configuredMaximum();
    Resource maximum = q.maximumCapacity() instanceof Absolute a ? a.resource() : Resource.NONE;
    if (!parentMaximum.equals(Resource.NONE) && rc.greaterThan(cluster, maximum, parentMaximum)) {
      throw new IllegalArgumentException(q.path() + ": maximum-capacity " + maximum + " is above the maximum "
          + parentMaximum + " of " + p.path());
    }
    if (maximum.equals(Resource.NONE) && !parentMaximum.equals(Resource.NONE)) maximum = parentMaximum;
    if (!maximum.equals(Resource.NONE) && rc.greaterThan(cluster, configuredMinimum, maximum)) {
      throw new IllegalArgumentException(q.path() + ": capacity " + configuredMinimum
          + " is above its maximum-capacity " + maximum);
    }
    return maximum;
  }

  /**
   * When the children of {@code parent} ask in absolute resources for more than it has, the factor
   * per resource type their asks are scaled by: what the parent has over what they ask together.
   */
  private Scale scaleOfChildren(CapacityQueueSpec parent, QueueCapacities p) {
    ResourceMath rc = settings.resourceMath();
    Resource asked = Resource.NONE;
    for (CapacityQueueSpec c : parent.children()) {
      if (c.capacity() instanceof Absolute a) asked = asked.plus(a.resource());
    }
    Resource has = null;
    if (parent.isRoot()) {
      if (!cluster.equals(Resource.NONE) && rc.lessThan(cluster, cluster, asked)) has = cluster;
    } else if (rc.lessThan(cluster, p.guaranteed(), asked)) {
      has = p.guaranteed();
    }
    if (has == null) return Scale.NONE;
    return new Scale(asked.memory() == 0 ? null : (float) has.memory() / asked.memory(),
        asked.vCores() == 0 ? null : (float) has.vCores() / asked.vCores());
  }

  private Resource maximumAllocation(CapacityQueueSpec q, Resource inherited) {
    Resource own = q.maximumAllocation();
    if (own == null) return inherited;
    Resource schedulerMaximum = settings.maximumAllocation();
    if (!schedulerMaximum.fits(own)) {
      throw new IllegalArgumentException(q.path() + ": maximum-allocation " + own
          + " is larger than the scheduler's maximum allocation " + schedulerMaximum);
    }
    return own;
  }

  private static CapacityQueueState state(CapacityQueueSpec q, QueueCapacities parent) {
    return parent.state() == CapacityQueueState.STOPPED ? CapacityQueueState.STOPPED : q.state();
  }

  private static float finite(float f) {
    return Float.isInfinite(f) ? 0f : f;
  }

  private Resource sum(CapacityQueueSpec q, Map<String, Resource> leafUsed, Map<String, Resource> out) {
    Resource total = q.isLeaf() ? leafUsed.getOrDefault(q.path(), Resource.NONE) : Resource.NONE;
    for (CapacityQueueSpec c : q.children()) total = total.plus(sum(c, leafUsed, out));
    out.put(q.path(), total);
    return total;
  }

  /** Per-type factors on configured absolute capacities; null leaves a type as configured. */
  private record Scale(Float memory, Float vCores) {
    static final Scale NONE = new Scale(null, null);

    Resource apply(Resource r) {
      long m = memory == null ? r.memory() : (long) (r.memory() * memory);
      long v = vCores == null ? r.vCores() : (long) (r.vCores() * vCores);
      return new Resource(m, (int) v);
    }

    String describe(String parent) {
      if (this.equals(NONE)) return "";
      return " scaled by " + (memory == null ? "" : "memory " + memory + " ")
          + (vCores == null ? "" : "vcores " + vCores + " ") + "as the children of " + parent
          + " ask more than it has";
    }
  }
}
