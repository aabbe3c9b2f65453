package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Resource arithmetic and queue-tree lookups shared by starvation detection and preemption planning. */
final class StarvationMath {
  private StarvationMath() {}

  /** Largest first by memory, then vcores: how apps are ordered for a min-share shortfall. */
  static final Comparator<Resource> LARGEST_FIRST =
      Comparator.comparingLong(Resource::memory).thenComparingInt(Resource::vCores).reversed();

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

  /** Truncates like Hadoop's {@code Resources.multiply}, so 0.8 x 3 vcores is 2. */
  static Resource scale(Resource r, double factor) {
    return Resource.of((long) (r.memory() * factor), (int) (r.vCores() * factor));
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

  /** How many containers of {@code ask} an amount pays for, counted on memory as Hadoop's default calculator does. */
  static long containersIn(Resource amount, Resource ask) {
    if (ask.memory() > 0) return amount.memory() / ask.memory();
    if (ask.vCores() > 0) return amount.vCores() / ask.vCores();
    return 0;
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
