package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.LinkedHashMap;
import java.util.Map;

/** Resource arithmetic and queue-tree lookups shared by starvation detection and preemption planning. */
final class StarvationMath {
  private StarvationMath() {}

  static Resource min(Resource a, Resource b) {
    return Resource.of(Math.min(a.memory(), b.memory()), Math.min(a.vCores(), b.vCores()));
  }

  /** {@code a - b}, each component floored at zero. */
  static Resource shortfall(Resource a, Resource b) {
    return Resource.of(Math.max(0, a.memory() - b.memory()), Math.max(0, a.vCores() - b.vCores()));
  }

  static Resource nonNegative(Resource r) {
    return shortfall(r, Resource.NONE);
  }

  static boolean anyPositive(Resource r) {
    return r.memory() > 0 || r.vCores() > 0;
  }

  static boolean isNone(Resource r) {
    return r.memory() == 0 && r.vCores() == 0;
  }

  /**
   * Hadoop's {@code Resources.multiply} by a queue's threshold, which Hadoop holds as a float:
   * truncated, so 0.8 x 3 vcores is 2, and 0.7 x 10 is 6 (0.7f is a little below 0.7).
   */
  static Resource scale(Resource r, double threshold) {
    double factor = (float) threshold;
    return Resource.of((long) (r.memory() * factor), (int) (long) (r.vCores() * factor));
  }

  /**
   * Whether {@code usage} is strictly below {@code share} as the queue's policy compares them, as
   * Hadoop's {@code isUsageBelowShare} does with the policy's resource calculator: FAIR and FIFO look at
   * memory only; DRF compares dominant shares of the cluster.
   */
  static boolean isBelow(FairPolicyKind policy, Resource cluster, Resource usage, Resource share) {
    if (policy != FairPolicyKind.DRF) return usage.memory() < share.memory();
    if (usage.equals(share)) return false;
    if (cluster.memory() <= 0 && cluster.vCores() <= 0) {
      return share.fits(usage) && !usage.fits(share);
    }
    return dominantShare(cluster, usage) < dominantShare(cluster, share);
  }

  private static double dominantShare(Resource cluster, Resource r) {
    double mem = cluster.memory() > 0 ? (double) r.memory() / cluster.memory() : 0;
    double cpu = cluster.vCores() > 0 ? (double) r.vCores() / cluster.vCores() : 0;
    return Math.max(mem, cpu);
  }

  /**
   * How many whole containers of {@code size} an amount of starvation pays for, as
   * {@code FSAppAttempt.getStarvedResourceRequests} counts them: Hadoop's default calculator divides
   * memory in floats and the result is floored, so 819 MB against 2048 MB is 0. A size without memory
   * divides by zero: no containers when there is no memory to pay either, unbounded otherwise.
   */
  static int containersIn(Resource amount, Resource size) {
    if (amount.memory() == 0 && size.memory() == 0) return 0;
    return (int) Math.floor((float) amount.memory() / (float) size.memory());
  }

  /**
   * {@code a} compared with {@code b} as the queue policy's calculator does when Hadoop asks
   * {@code Resources.greaterThan}: FAIR and FIFO compare memory; DRF compares the dominant shares of
   * the cluster and, on a tie, the other share (a type the cluster has none of counts as infinitely
   * large); with no cluster at all it is greater only if larger in one type and smaller in none.
   */
  static int compare(FairPolicyKind policy, Resource cluster, Resource a, Resource b) {
    if (policy != FairPolicyKind.DRF) return Long.compare(a.memory(), b.memory());
    if (a.equals(b)) return 0;
    if (cluster.memory() == 0 && cluster.vCores() == 0) {
      boolean aGreater = a.memory() > b.memory() || a.vCores() > b.vCores();
      boolean bGreater = a.memory() < b.memory() || a.vCores() < b.vCores();
      return aGreater == bGreater ? 0 : aGreater ? 1 : -1;
    }
    double[] sa = shares(cluster, a);
    double[] sb = shares(cluster, b);
    int domA = sa[1] > sa[0] ? 1 : 0;
    int domB = sb[1] > sb[0] ? 1 : 0;
    int byDominant = signum(sa[domA], sb[domB]);
    return byDominant != 0 ? byDominant : signum(sa[1 - domA], sb[1 - domB]);
  }

  private static int signum(double x, double y) {
    return x > y ? 1 : x < y ? -1 : 0;
  }

  private static double[] shares(Resource cluster, Resource r) {
    return new double[] {share(r.memory(), cluster.memory()), share(r.vCores(), cluster.vCores())};
  }

  private static double share(long value, long of) {
    return of == 0 ? Float.POSITIVE_INFINITY : (double) value / of;
  }

  /** Leaf queues by path, in tree order. */
  static Map<String, QueueSpec> leaves(QueueSpec root) {
    Map<String, QueueSpec> out = new LinkedHashMap<>();
    collectLeaves(root, out);
    return out;
  }

  private static void collectLeaves(QueueSpec q, Map<String, QueueSpec> out) {
    if (q.isLeaf()) out.put(q.path(), q);
    for (QueueSpec child : q.children()) collectLeaves(child, out);
  }

  /** Per leaf path, whether containers may be taken from it: {@code allowPreemptionFrom=false} covers the subtree. */
  static Map<String, Boolean> preemptableLeaves(QueueSpec root) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    collectPreemptable(root, true, out);
    return out;
  }

  private static void collectPreemptable(QueueSpec q, boolean parentAllows, Map<String, Boolean> out) {
    boolean allows = parentAllows && q.allowPreemptionFrom();
    if (q.isLeaf()) out.put(q.path(), allows);
    for (QueueSpec child : q.children()) collectPreemptable(child, allows, out);
  }
}
