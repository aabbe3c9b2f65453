package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.core.policy.AppSnapshot;
import static dev.bobbin.core.policy.fair.StarvationMath.anyPositive;
import static dev.bobbin.core.policy.fair.StarvationMath.isBelow;
import static dev.bobbin.core.policy.fair.StarvationMath.min;
import static dev.bobbin.core.policy.fair.StarvationMath.scale;
import static dev.bobbin.core.policy.fair.StarvationMath.shortfall;

import dev.bobbin.core.policy.fair.Starvation.Kind;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.core.policy.fair.Starvation.StarvedQueue;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds applications starved for fair share and leaf queues starved for min share, as Hadoop's
 * FairScheduler does in {@code FSAppAttempt.fairShareStarvation} and {@code FSLeafQueue.updateStarvedApps}.
 *
 * <p>Fair share: an application with pending demand whose usage is below
 * {@code min(threshold x fairShare, demand)} continuously for the queue's fairSharePreemptionTimeout is
 * starved for the difference. As in Hadoop (and as the Cloudera deep-dive says), preemption only lifts
 * it to the threshold, not to the whole fair share.
 *
 * <p>Min share: a leaf queue whose usage is below {@code min(minShare, demand)} continuously for its
 * minSharePreemptionTimeout is short the difference. What fair-share starvation of its applications
 * already covers is taken out, and the rest is handed to its applications with the most pending demand
 * first, each getting at most its pending demand not yet covered.
 */
public final class StarvationDetector {
  private StarvationDetector() {}

  /** Hadoop's starved-apps queue serves the least starved first, so small asks are not stuck behind big ones. */
  private static final Comparator<StarvedApp> SERVICE_ORDER =
      Comparator.comparingLong((StarvedApp s) -> s.starvedFor().memory())
          .thenComparingInt(s -> s.starvedFor().vCores())
          .thenComparing(StarvedApp::kind)
          .thenComparing(StarvedApp::appId);

  public static Starvation detect(
      QueueSpec root, FairShares shares, List<AppSnapshot> apps, StarvationClocks previous, long nowMillis) {
    Map<String, QueueSpec> leaves = StarvationMath.leaves(root);
    Resource cluster = clusterOf(root, shares);
    List<AppSnapshot> ordered = apps.stream().sorted(Comparator.comparing(AppSnapshot::appId)).toList();

    Map<String, Long> appClocks = new HashMap<>();
    Map<String, Resource> fairStarved = new HashMap<>();
    List<StarvedApp> starved = new ArrayList<>();
    for (AppSnapshot app : ordered) {
      QueueSpec queue = leaves.get(app.queuePath());
      if (queue == null) continue;
      Resource fairShare = shares.apps().getOrDefault(app.appId(), Resource.NONE);
      Resource target = min(scale(fairShare, queue.fairSharePreemptionThreshold()), app.demand());
      boolean below = anyPositive(app.pending()) && isBelow(queue.policy(), cluster, app.usage(), target);
      if (!below) continue;
      long since = since(previous.appsBelowSince().get(app.appId()), nowMillis);
      appClocks.put(app.appId(), since);
      Duration timeout = queue.fairSharePreemptionTimeout();
      if (!timedOut(timeout, since, nowMillis)) continue;
      Resource amount = shortfall(target, app.usage());
      if (!anyPositive(amount)) continue;
      fairStarved.put(app.appId(), amount);
      starved.add(new StarvedApp(app.appId(), app.queuePath(), amount, Kind.FAIR_SHARE, fairShare, app.usage(),
          queue.fairSharePreemptionThreshold(), timeout, since));
    }

    Map<String, List<AppSnapshot>> byQueue = new LinkedHashMap<>();
    for (AppSnapshot app : ordered) byQueue.computeIfAbsent(app.queuePath(), k -> new ArrayList<>()).add(app);

    Map<String, Long> queueClocks = new HashMap<>();
    List<StarvedQueue> starvedQueues = new ArrayList<>();
    for (QueueSpec queue : leaves.values()) {
      List<AppSnapshot> inQueue = byQueue.getOrDefault(queue.path(), List.of());
      Resource usage = Resource.NONE;
      Resource demand = Resource.NONE;
      for (AppSnapshot app : inQueue) {
        usage = usage.plus(app.usage());
        demand = demand.plus(app.demand());
      }
      demand = min(demand, queue.maxShare());
      Resource gap = shortfall(min(queue.minShare(), demand), usage);
      if (!anyPositive(gap)) continue;
      long since = since(previous.queuesBelowSince().get(queue.path()), nowMillis);
      queueClocks.put(queue.path(), since);
      Duration timeout = queue.minSharePreemptionTimeout();
      if (!timedOut(timeout, since, nowMillis)) continue;
      StarvedQueue sq = new StarvedQueue(queue.path(), queue.minShare(), usage, demand, gap, timeout, since);
      starvedQueues.add(sq);
      starved.addAll(shareOutMinShare(sq, inQueue, fairStarved, shares));
    }

    starved.sort(SERVICE_ORDER);
    return new Starvation(starved, starvedQueues, new StarvationClocks(appClocks, queueClocks));
  }

  /** The 6 GB short / apps wanting 3, 2, 1, 0.5 GB example: they get 3, 2, 1 and nothing. */
  private static List<StarvedApp> shareOutMinShare(
      StarvedQueue queue, List<AppSnapshot> inQueue, Map<String, Resource> fairStarved, FairShares shares) {
    Resource coveredByFairShare = Resource.NONE;
    for (AppSnapshot app : inQueue) coveredByFairShare = coveredByFairShare.plus(fairStarved.getOrDefault(app.appId(), Resource.NONE));
    Resource remaining = shortfall(queue.shortfall(), coveredByFairShare);

    List<AppSnapshot> wanting = inQueue.stream()
        .filter(a -> anyPositive(a.pending()))
        .sorted(Comparator.comparing(AppSnapshot::pending, StarvationMath.LARGEST_FIRST)
            .thenComparing(AppSnapshot::appId))
        .toList();
    List<StarvedApp> out = new ArrayList<>();
    for (AppSnapshot app : wanting) {
      if (!anyPositive(remaining)) break;
      Resource need = shortfall(app.pending(), fairStarved.getOrDefault(app.appId(), Resource.NONE));
      Resource given = min(need, remaining);
      if (!anyPositive(given)) continue;
      remaining = remaining.minus(given);
      out.add(new StarvedApp(app.appId(), app.queuePath(), given, Kind.MIN_SHARE,
          shares.apps().getOrDefault(app.appId(), Resource.NONE), app.usage(), 1.0, queue.timeout(),
          queue.belowSince()));
    }
    return out;
  }

  /** A clock from the future (another member's clock after failover) restarts at now rather than never expiring. */
  private static long since(Long previous, long now) {
    return previous == null ? now : Math.min(previous, now);
  }

  /** A null timeout is Hadoop's Long.MAX_VALUE default: the condition is tracked but never starves. */
  private static boolean timedOut(Duration timeout, long since, long now) {
    return timeout != null && now - since >= timeout.toMillis();
  }

  /** Root's steady fair share is the cluster; its max share stands in before the first share computation. */
  private static Resource clusterOf(QueueSpec root, FairShares shares) {
    FairShares.QueueShare rootShare = shares.queues().get(root.path());
    if (rootShare != null && anyPositive(rootShare.steadyFairShare())) return rootShare.steadyFairShare();
    return root.maxShare();
  }
}
