package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.fair.FairShares.QueueShare;
import dev.bobbin.core.policy.fair.WeightedSplit.Claim;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Steady and instantaneous fair shares of a Fair queue tree, as Hadoop's FairScheduler computes them
 * in {@code FSParentQueue.recomputeSteadyShares} and {@code FSQueue.update}.
 *
 * <ul>
 *   <li>The root's steady and instantaneous shares are the cluster.
 *   <li>Steady: each parent's steady share is split among all its children by weight, within each
 *       child's min and max, by Hadoop's own search ({@link WeightedSplit}), so the children's
 *       shares may add up to a little more than the parent's, and mins are handed out in full even
 *       where they add up to more than the parent has. Applications have no steady share.
 *   <li>Instantaneous: the same split, among the active children only; inactive ones get zero. A
 *       leaf is active when it has a runnable application ({@link RunnableApps}), a parent when any
 *       child is. Like Hadoop, demand does not cap a share: a queue's share is not lowered to what
 *       it asks for. Demand orders queues during assignment, and starvation checks compare usage with
 *       the smaller of share and demand, as Hadoop's do.
 *   <li>How a parent splits depends on its policy, as in Hadoop: FAIR splits memory only and leaves
 *       vcores at 0 (Hadoop's FairSharePolicy never sets them, so its queues show {@code vCores:0});
 *       DRF splits memory and vcores, each independently; a FIFO parent, which Hadoop rejects, is
 *       treated as FAIR.
 *   <li>Within a leaf, FAIR and DRF split the leaf's share equally among its runnable applications
 *       (weight 1, no min, no max, on the resource types the policy splits); FIFO gives the whole
 *       leaf share to the earliest submitted runnable application and nothing to the rest.
 *   <li>A queue's usage is the sum of its applications' usage, runnable or not; its demand the sum of
 *       their usage plus pending, capped per resource type at the queue's max share (Hadoop's
 *       {@code updateDemand}). A max share below the min share counts as the min share.
 * </ul>
 *
 * <p>Every application in the input appears in the result; one that is not runnable, or whose queue
 * is not a leaf of the tree, gets {@link Resource#NONE}. Application ids are assumed unique.
 */
public final class FairShareCalculator {
  /** Hadoop gives every application weight 1 (size-based weights are not offered). */
  private static final double APP_WEIGHT = 1.0;

  private FairShareCalculator() {}

  public static FairShares compute(QueueSpec root, Resource cluster, List<AppSnapshot> apps) {
    QueueIndex index = QueueIndex.of(root);
    Set<String> runnable = RunnableApps.select(index, apps.stream()
        .map(a -> new RunnableApps.Submission(a.appId(), a.queuePath(), a.submitTime()))
        .toList());

    Map<String, List<AppSnapshot>> runnableByLeaf = new HashMap<>();
    Map<String, Resource> leafUsage = new HashMap<>();
    Map<String, Resource> leafDemand = new HashMap<>();
    for (AppSnapshot app : apps) {
      if (!index.isLeaf(app.queuePath())) continue;
      leafUsage.merge(app.queuePath(), app.usage(), Resource::plus);
      leafDemand.merge(app.queuePath(), app.demand(), Resource::plus);
      if (runnable.contains(app.appId())) {
        runnableByLeaf.computeIfAbsent(app.queuePath(), k -> new ArrayList<>()).add(app);
      }
    }

    Tree tree = new Tree(runnableByLeaf, leafUsage, leafDemand);
    tree.aggregate(root);
    tree.steady.put(root.path(), cluster);
    tree.fair.put(root.path(), cluster);
    tree.share(root);

    Map<String, QueueShare> queues = new LinkedHashMap<>();
    for (QueueSpec q : index.queues()) {
      String p = q.path();
      queues.put(p, new QueueShare(p, tree.steady.get(p), tree.fair.get(p), tree.usage.get(p),
          tree.demand.get(p), tree.active.get(p)));
    }
    Map<String, Resource> appShares = new LinkedHashMap<>();
    apps.forEach(a -> appShares.put(a.appId(), tree.appShares.getOrDefault(a.appId(), Resource.NONE)));
    return new FairShares(queues, appShares);
  }

  /** Per-queue working values of one computation; local to {@link #compute}. */
  private static final class Tree {
    final Map<String, List<AppSnapshot>> runnableByLeaf;
    final Map<String, Resource> leafUsage;
    final Map<String, Resource> leafDemand;
    final Map<String, Resource> usage = new HashMap<>();
    final Map<String, Resource> demand = new HashMap<>();
    final Map<String, Boolean> active = new HashMap<>();
    final Map<String, Resource> steady = new HashMap<>();
    final Map<String, Resource> fair = new HashMap<>();
    final Map<String, Resource> appShares = new HashMap<>();

    Tree(Map<String, List<AppSnapshot>> runnableByLeaf, Map<String, Resource> leafUsage,
        Map<String, Resource> leafDemand) {
      this.runnableByLeaf = runnableByLeaf;
      this.leafUsage = leafUsage;
      this.leafDemand = leafDemand;
    }

    void aggregate(QueueSpec q) {
      Resource u;
      Resource d;
      boolean a;
      if (q.isLeaf()) {
        u = leafUsage.getOrDefault(q.path(), Resource.NONE);
        d = leafDemand.getOrDefault(q.path(), Resource.NONE);
        a = !runnableByLeaf.getOrDefault(q.path(), List.of()).isEmpty();
      } else {
        u = Resource.NONE;
        d = Resource.NONE;
        a = false;
        for (QueueSpec c : q.children()) {
          aggregate(c);
          u = u.plus(usage.get(c.path()));
          d = d.plus(demand.get(c.path()));
          a |= active.get(c.path());
        }
      }
      usage.put(q.path(), u);
      demand.put(q.path(), componentwiseMin(d, QueueIndex.effectiveMax(q)));
      active.put(q.path(), a);
    }

    void share(QueueSpec q) {
      if (q.isLeaf()) {
        shareAmongApps(q);
        return;
      }
      List<QueueSpec> kids = q.children();
      List<Resource> s = divide(q.policy(), kids, steady.get(q.path()), k -> true);
      List<Resource> f = divide(q.policy(), kids, fair.get(q.path()), k -> active.get(k.path()));
      for (int i = 0; i < kids.size(); i++) {
        steady.put(kids.get(i).path(), s.get(i));
        fair.put(kids.get(i).path(), f.get(i));
        share(kids.get(i));
      }
    }

    private void shareAmongApps(QueueSpec leaf) {
      List<AppSnapshot> apps = runnableByLeaf.getOrDefault(leaf.path(), List.of());
      if (apps.isEmpty()) return;
      Resource leafShare = fair.get(leaf.path());
      if (leaf.policy() == FairPolicyKind.FIFO) {
        AppSnapshot first = apps.stream()
            .min(Comparator.comparingLong(AppSnapshot::submitTime).thenComparing(AppSnapshot::appId))
            .orElseThrow();
        apps.forEach(a -> appShares.put(a.appId(), a == first ? leafShare : Resource.NONE));
        return;
      }
      List<Claim> memory = new ArrayList<>();
      List<Claim> vcores = new ArrayList<>();
      for (int i = 0; i < apps.size(); i++) {
        memory.add(Claim.of(APP_WEIGHT, 0, Long.MAX_VALUE));
        vcores.add(Claim.of(APP_WEIGHT, 0, Integer.MAX_VALUE));
      }
      long[] mem = WeightedSplit.split(memory, leafShare.memory());
      long[] cpu = leaf.policy() == FairPolicyKind.DRF
          ? WeightedSplit.split(vcores, leafShare.vCores())
          : new long[apps.size()];
      for (int i = 0; i < apps.size(); i++) {
        appShares.put(apps.get(i).appId(), new Resource(mem[i], (int) cpu[i]));
      }
    }
  }

  /** Splits {@code amount} among the children that take part; the others get nothing. */
  private static List<Resource> divide(
      FairPolicyKind policy, List<QueueSpec> children, Resource amount, Predicate<QueueSpec> takesPart) {
    long[] mem = splitType(children, amount.memory(), takesPart, Resource::memory);
    long[] cpu = policy == FairPolicyKind.DRF
        ? splitType(children, amount.vCores(), takesPart, Resource::vCores)
        : new long[children.size()];
    List<Resource> out = new ArrayList<>(children.size());
    for (int i = 0; i < children.size(); i++) out.add(new Resource(mem[i], (int) cpu[i]));
    return out;
  }

  private static long[] splitType(
      List<QueueSpec> children, long amount, Predicate<QueueSpec> takesPart, ToLongFunction<Resource> type) {
    List<Claim> claims = new ArrayList<>(children.size());
    for (QueueSpec c : children) {
      claims.add(new Claim((float) c.weight(), type.applyAsLong(c.minShare()),
          type.applyAsLong(QueueIndex.effectiveMax(c)), takesPart.test(c)));
    }
    return WeightedSplit.split(claims, amount);
  }

  private static Resource componentwiseMin(Resource a, Resource b) {
    return new Resource(Math.min(a.memory(), b.memory()), Math.min(a.vCores(), b.vCores()));
  }
}
