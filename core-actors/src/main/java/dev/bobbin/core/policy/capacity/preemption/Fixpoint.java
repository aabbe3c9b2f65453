package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.QueueOrdering;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Shares what one level of the tree holds among its queues, as Hadoop's
 * {@code computeFixpointAllocation}: each queue starts at its usage (a queue over its guarantee at
 * its guarantee plus what it must keep), then the rest is offered, most under-served first, in
 * parts proportional to the guarantees of the queues still asking, until no one asks or nothing is
 * left.
 */
final class Fixpoint {
  private Fixpoint() {}

  /**
   * What is left to share at a level. Hadoop hands the figure to the fix point by reference and,
   * from the first part given out on, goes on with a copy: the caller sees the starting
   * assignments and that first part taken off, but not the later ones. The zero-guarantee queues of
   * a level are offered what the caller sees, so this is kept to give them the same.
   */
  static final class Unassigned {
    Resource value;

    Unassigned(Resource value) {
      this.value = value;
    }
  }

  /**
   * @param total what the level holds; resources compare against it
   * @param evenly share in equal parts rather than by guarantee (for queues guaranteed nothing)
   * @param underserved collects the queues left wanting, most under-served first
   */
  static void distribute(ResourceMath rc, Resource total, Collection<WorkingQueue> queues, Unassigned unassigned,
      boolean evenly, Set<String> underserved) {
    Comparator<WorkingQueue> byNeed = byNeed(rc, total);
    PriorityQueue<WorkingQueue> asking = new PriorityQueue<>(10, byNeed);
    for (WorkingQueue q : queues) {
      q.initialAssignment = rc.greaterThan(total, q.used, q.guaranteed)
          ? ResourceMath.componentwiseMin(q.guaranteed, q.used).plus(q.untouchableExtra)
          : q.used;
      q.idealAssigned = q.initialAssignment;
      unassigned.value = unassigned.value.minus(q.idealAssigned);
      if (rc.lessThan(total, q.idealAssigned, q.used.plus(q.pending))) asking.add(q);
    }

    Resource left = unassigned.value;
    boolean shared = true;
    while (!asking.isEmpty() && rc.greaterThan(total, left, Resource.NONE)) {
      normalizeGuarantees(asking, evenly);
      List<WorkingQueue> neediest = mostUnderserved(asking, byNeed, underserved);
      Resource forThisPass = left;
      for (WorkingQueue q : neediest) {
        if (!anyAboveZero(rc, left)) break;
        Resource offered = ResourceMath.componentwiseMin(share(rc, forThisPass, q.normalizedGuarantee), left);
        Resource taken = offered.minus(q.offer(offered, rc, total));
        if (rc.greaterThan(total, taken, Resource.NONE)) asking.add(q);
        left = left.minus(taken);
        if (shared) unassigned.value = left;
        left = ResourceMath.componentwiseMax(left, Resource.NONE);
        shared = false;
      }
    }
    while (!asking.isEmpty()) underserved.add(asking.remove().path);
  }

  /**
   * Most under-served first: ideal assignment over guarantee (a queue guaranteed nothing counts as
   * the most served), with queue priorities where the parent orders by them, as in queue ordering.
   */
  private static Comparator<WorkingQueue> byNeed(ResourceMath rc, Resource total) {
    return (a, b) -> QueueOrdering.compareUse(servedRatio(rc, total, a), servedRatio(rc, total, b),
        a.relativePriority, b.relativePriority);
  }

  private static double servedRatio(ResourceMath rc, Resource total, WorkingQueue q) {
    if (!rc.greaterThan(total, q.guaranteed, Resource.NONE)) return Integer.MAX_VALUE;
    return rc.divide(total, q.idealAssigned, q.guaranteed);
  }

  /** Takes the head and every queue tied with it; each stays out of {@code asking} until given more. */
  private static List<WorkingQueue> mostUnderserved(PriorityQueue<WorkingQueue> asking, Comparator<WorkingQueue> byNeed,
      Set<String> underserved) {
    List<WorkingQueue> out = new ArrayList<>();
    while (!asking.isEmpty()) {
      WorkingQueue head = asking.remove();
      out.add(head);
      underserved.add(head.path);
      WorkingQueue next = asking.peek();
      if (next == null || byNeed.compare(head, next) < 0) {
        if (next != null) underserved.add(next.path);
        return out;
      }
    }
    return out;
  }

  /**
   * Each asking queue's part per resource type: its guarantee over theirs together. When that is 0
   * for a queue with an absolute capacity, by absolute capacities instead; when the queues together
   * have none of a type (or no capacity at all), in equal parts. Hadoop divides in single precision.
   */
  private static void normalizeGuarantees(Collection<WorkingQueue> queues, boolean evenly) {
    int n = queues.size();
    if (evenly) {
      for (WorkingQueue q : queues) {
        q.normalizedGuarantee[0] = 1.0f / n;
        q.normalizedGuarantee[1] = 1.0f / n;
      }
      return;
    }
    Resource together = Resource.NONE;
    float absoluteTogether = 0f;
    for (WorkingQueue q : queues) {
      together = together.plus(q.guaranteed);
      absoluteTogether += q.absoluteCapacity;
    }
    for (int type = 0; type < 2; type++) {
      long all = amount(together, type);
      boolean byAbsolute = false;
      boolean even = absoluteTogether == 0;
      for (WorkingQueue q : queues) {
        if (amount(q.guaranteed, type) == 0 && q.absoluteCapacity != 0 && all != 0) {
          byAbsolute = true;
          break;
        }
        if (all == 0) even = true;
      }
      for (WorkingQueue q : queues) {
        if (byAbsolute) {
          if (absoluteTogether != 0) q.normalizedGuarantee[type] = q.absoluteCapacity / absoluteTogether;
        } else if (even) {
          q.normalizedGuarantee[type] = 1.0f / n;
        } else {
          q.normalizedGuarantee[type] = all == 0 ? 0.0f : (float) amount(q.guaranteed, type) / all;
        }
      }
    }
  }

  /**
   * {@code r} times each type's part, rounded up to whole units: the default calculator rounds
   * memory half up and gives the result one vcore, the dominant one takes each type's ceiling.
   */
  private static Resource share(ResourceMath rc, Resource r, double[] part) {
    if (rc == ResourceMath.DEFAULT) {
      long memory = (long) (r.memory() * part[0] + 0.5);
      return new Resource(memory, memory > 0 ? 1 : 0);
    }
    return new Resource((long) Math.ceil(r.memory() * part[0]), (int) (long) Math.ceil(r.vCores() * part[1]));
  }

  static boolean anyAboveZero(ResourceMath rc, Resource r) {
    return rc == ResourceMath.DEFAULT ? r.memory() > 0 : r.memory() > 0 || r.vCores() > 0;
  }

  private static long amount(Resource r, int type) {
    return type == 0 ? r.memory() : r.vCores();
  }
}
