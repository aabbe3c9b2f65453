package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.capacity.CapacityTree.Utilization;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The order in which a parent offers resources to its children: Hadoop's
 * {@code PriorityUtilizationQueueOrderingPolicy}.
 *
 * <ol>
 *   <li>A child with a guarantee (absolute capacity above 0) goes before one without.
 *   <li>Children with guarantees compare by used capacity (used over guaranteed, in the resource
 *       calculator's terms); children without by absolute used capacity (used over the cluster).
 *   <li>When the parent's policy is {@code priority-utilization} and priorities differ: if one child is
 *       below its guarantee (used capacity under 1) and the other is not, the one below goes first;
 *       otherwise the higher priority goes first. Under {@code utilization} priorities are not read.
 *   <li>On a tie, the larger configured absolute resource goes first (memory, then vcores) when
 *       either has one, else the larger absolute capacity.
 *   <li>Then the order the children were configured in: the sort is stable, as Hadoop's.
 * </ol>
 */
public final class QueueOrdering {
  private QueueOrdering() {}

  /**
   * A child as the ordering sees it.
   *
   * @param configuredMinimum the configured absolute capacity, {@link Resource#NONE} for percentages
   */
  public record Candidate(
      String path, int priority, float absoluteCapacity, float usedCapacity, float absoluteUsedCapacity,
      Resource configuredMinimum) {}

  /** A child in its place, with the numbers that put it there. */
  public record Ranked(String path, Candidate candidate, String reason) {}

  /**
   * The children of {@code parentPath} in the order the parent offers them resources, given what
   * every queue uses ({@link CapacityTree#rollUp}); a queue missing from {@code used} uses nothing.
   */
  public static List<Ranked> children(CapacityTree tree, String parentPath, Map<String, Resource> used) {
    List<Candidate> candidates = new ArrayList<>();
    for (CapacityQueueSpec child : tree.spec(parentPath).children()) {
      QueueCapacities q = tree.queue(child.path());
      Utilization u = tree.utilization(child.path(), used.getOrDefault(child.path(), Resource.NONE));
      candidates.add(new Candidate(child.path(), child.priority(), q.absoluteCapacity(), u.usedCapacity(),
          u.absoluteUsedCapacity(), q.configuredMinimum()));
    }
    return order(candidates, tree.spec(parentPath).orderingPolicy().respectsPriority());
  }

  /** {@code candidates} in the order they are offered resources; equal ones keep their order. */
  public static List<Ranked> order(List<Candidate> candidates, boolean respectPriority) {
    List<Candidate> sorted = new ArrayList<>(candidates);
    sorted.sort(comparator(respectPriority));
    List<Ranked> out = new ArrayList<>(sorted.size());
    for (Candidate c : sorted) out.add(new Ranked(c.path(), c, reason(c, respectPriority)));
    return out;
  }

  public static Comparator<Candidate> comparator(boolean respectPriority) {
    return (a, b) -> {
      boolean aGuaranteed = Float.compare(a.absoluteCapacity(), 0f) > 0;
      boolean bGuaranteed = Float.compare(b.absoluteCapacity(), 0f) > 0;
      if (aGuaranteed && Float.compare(b.absoluteCapacity(), 0f) == 0) return -1;
      if (bGuaranteed && Float.compare(a.absoluteCapacity(), 0f) == 0) return 1;
      boolean bothUnguaranteed = Float.compare(a.absoluteCapacity(), 0f) == 0
          && Float.compare(b.absoluteCapacity(), 0f) == 0;
      float aUsed = bothUnguaranteed ? a.absoluteUsedCapacity() : a.usedCapacity();
      float bUsed = bothUnguaranteed ? b.absoluteUsedCapacity() : b.usedCapacity();
      int c = compareUse(aUsed, bUsed, respectPriority ? a.priority() : 0, respectPriority ? b.priority() : 0);
      if (c != 0) return c;
      if (!a.configuredMinimum().equals(Resource.NONE) || !b.configuredMinimum().equals(Resource.NONE)) {
        return compareResources(b.configuredMinimum(), a.configuredMinimum());
      }
      return Float.compare(b.absoluteCapacity(), a.absoluteCapacity());
    };
  }

  /**
   * Hadoop's rule for two queues' relative use and priorities, also used by its preemption: same
   * priority, less used first; one under its guarantee and the other not, the one under first;
   * otherwise the higher priority first.
   */
  public static int compareUse(double used1, double used2, int priority1, int priority2) {
    if (priority1 == priority2) return Double.compare(used1, used2);
    boolean bothUnder = used1 < 1.0f && used2 < 1.0f;
    boolean bothOver = used1 >= 1.0f && used2 >= 1.0f;
    if (bothUnder || bothOver) return Integer.compare(priority2, priority1);
    return Double.compare(used1, used2);
  }

  /** Memory, then vcores, as Hadoop's {@code Resource.compareTo}. */
  private static int compareResources(Resource a, Resource b) {
    int byMemory = Long.compare(a.memory(), b.memory());
    return byMemory != 0 ? byMemory : Integer.compare(a.vCores(), b.vCores());
  }

  private static String reason(Candidate c, boolean respectPriority) {
    String use = Float.compare(c.absoluteCapacity(), 0f) > 0
        ? String.format("used %s of its guarantee (%s)", c.usedCapacity(),
            c.usedCapacity() < 1f ? "under it" : "at or over it")
        : String.format("no guarantee, used %s of the cluster", c.absoluteUsedCapacity());
    return use + (respectPriority ? ", priority " + c.priority() : "")
        + ", absolute capacity " + c.absoluteCapacity();
  }
}
