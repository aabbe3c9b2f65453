package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.StarvationMath.isNone;
import static dev.bobbin.core.policy.fair.StarvationMath.min;
import static dev.bobbin.core.policy.fair.StarvationMath.shortfall;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.fair.FairOrdering.Contender;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.core.policy.fair.Starvation.StarvedQueue;
import dev.bobbin.core.policy.fair.StarvationState.AppStarvation;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Finds starved applications as Hadoop's FairScheduler does on each update while preemption is on
 * and the cluster is busy enough ({@code FSLeafQueue.updateStarvedApps} for every leaf, then
 * {@code FSStarvedApps} for the order they are served in). The caller applies that gate; when it is
 * shut, {@link #follow} keeps track of new and departed applications and moves no clock.
 *
 * <p>In each leaf queue, the runnable applications with pending demand that are not within their
 * recheck delay are ordered by the queue's policy, as Hadoop's {@code fetchAppsWithDemand} does:
 *
 * <ol>
 *   <li>Fair share, walking that order: an application is below when its usage is under
 *       {@code min(threshold x fairShare, demand)} as its queue's policy compares them (the threshold is
 *       a float, the product truncated); when not below, its clock is set to now. Below for at least
 *       the queue's fairSharePreemptionTimeout since that clock, it is starved for the difference. The
 *       walk stops at the first application that is not starved: those after it are not looked at, so
 *       their clocks and last computed starvation stay as they were, as in Hadoop.
 *   <li>Min share: the queue is short of {@code min(minShare, demand)} minus its usage; when not short
 *       its clock is set to now, and it counts as starved only after its minSharePreemptionTimeout.
 *       What the queue's applications are starved of for fair share is taken out, and the rest is
 *       handed out in the same order: each application is attributed its pending demand less its
 *       (last computed) fair-share starvation, or, when that is more than what is left, that amount
 *       less what is left, and the rest of the walk gets nothing. That second case is Hadoop's
 *       arithmetic as it stands (it subtracts where one would expect it to cap), mirrored as it is.
 *       Every application reached while something is left is starved, even with nothing attributed.
 * </ol>
 *
 * <p>Starved applications are served in the order of Hadoop's starved-application queue: a binary
 * heap whose comparator puts an application first when its starvation fits in the other's, applied
 * as applications are added leaf by leaf and as their starvation changes during the pass. That
 * comparator is not a consistent order, so the order depends on the heap's history; Bobbin replays
 * the same heap operations. Hadoop's leaf queues are walked in the order its queue manager created
 * them (for configured queues, the iteration order of a hash set of names), and its preemption thread
 * may take the first starved application while the update is still adding others; Bobbin walks the
 * leaves in tree order and serves applications once the whole pass is done.
 */
public final class StarvationDetector {
  private StarvationDetector() {}

  /**
   * One update's starvation checks.
   *
   * @param cluster the cluster's capacity, which DRF comparisons divide by
   */
  public static Starvation detect(
      QueueSpec root, FairShares shares, Resource cluster, List<AppSnapshot> apps, StarvationState previous,
      long nowMillis) {
    return new Pass(root, shares, cluster, apps, previous, nowMillis).run();
  }

  /** An update that does not check starvation: new applications and queues are known from now on. */
  public static StarvationState follow(QueueSpec root, List<AppSnapshot> apps, StarvationState previous, long now) {
    return previous.following(apps, StarvationMath.leaves(root).keySet(), now);
  }

  /** The working state of one {@link #detect} call; its inputs are only read. */
  private static final class Pass {
    private final FairShares shares;
    private final Resource cluster;
    private final long now;
    private final Map<String, QueueSpec> leaves;
    private final List<AppSnapshot> apps;
    private final Set<String> runnable;
    private final StarvationState previous;
    private final Map<String, AppStarvation> appState;
    private final Map<String, Long> queueState;
    private final PriorityQueue<String> toServe;
    private final List<StarvedQueue> starvedQueues = new ArrayList<>();

    Pass(QueueSpec root, FairShares shares, Resource cluster, List<AppSnapshot> apps, StarvationState previous,
        long now) {
      this.shares = shares;
      this.cluster = cluster;
      this.now = now;
      this.leaves = StarvationMath.leaves(root);
      this.apps = apps;
      this.runnable = RunnableApps.select(QueueIndex.of(root), apps.stream()
          .map(a -> new RunnableApps.Submission(a.appId(), a.queuePath(), a.submitTime())).toList());
      this.previous = previous.following(apps, leaves.keySet(), now);
      this.appState = new HashMap<>(this.previous.apps());
      this.queueState = new HashMap<>(this.previous.queuesLastAtMinShare());
      // Hadoop's FSStarvedApps comparator, reading each application's starvation when it compares.
      this.toServe = new PriorityQueue<>(10, (a, b) -> appState.get(b).starvation().fits(appState.get(a).starvation())
          ? -1 : 1);
    }

    Starvation run() {
      Map<String, List<AppSnapshot>> byLeaf = new HashMap<>();
      for (AppSnapshot app : apps) byLeaf.computeIfAbsent(app.queuePath(), k -> new ArrayList<>()).add(app);
      for (QueueSpec leaf : leaves.values()) updateStarvedApps(leaf, byLeaf.getOrDefault(leaf.path(), List.of()));

      Map<String, AppSnapshot> byId = new HashMap<>();
      apps.forEach(a -> byId.put(a.appId(), a));
      List<StarvedApp> served = new ArrayList<>();
      while (!toServe.isEmpty()) {
        AppSnapshot app = byId.get(toServe.poll());
        QueueSpec leaf = leaves.get(app.queuePath());
        AppStarvation s = appState.get(app.appId());
        served.add(new StarvedApp(app.appId(), app.queuePath(), s.fairShareStarvation(), s.minShareStarvation(),
            fairShareOf(app), app.usage(), app.demand(), leaf.fairSharePreemptionThreshold(),
            leaf.fairSharePreemptionTimeout(), s.lastAtFairShare()));
      }
      StarvationState next = new StarvationState(appState, queueState, previous.origin(), now);
      return new Starvation(served, starvedQueues, next);
    }

    private void updateStarvedApps(QueueSpec leaf, List<AppSnapshot> inLeaf) {
      Comparator<Contender> order = FairOrdering.forApps(leaf.policy(), cluster);
      List<AppSnapshot> withDemand = inLeaf.stream()
          .filter(a -> runnable.contains(a.appId()) && !isNone(a.pending()) && now >= appState.get(a.appId()).recheckAt())
          .sorted(Comparator.comparing(StarvationDetector::contender, order))
          .toList();

      Resource fairShareStarvation = Resource.NONE;
      for (AppSnapshot app : withDemand) {
        Resource starved = fairShareStarvation(leaf, app);
        if (isNone(starved)) break;
        add(app.appId());
        fairShareStarvation = fairShareStarvation.plus(starved);
      }

      Resource pending = shortfall(minShareStarvation(leaf, inLeaf), fairShareStarvation);
      for (AppSnapshot app : withDemand) {
        AppStarvation s = appState.get(app.appId());
        if (isNone(pending)) {
          appState.put(app.appId(), s.withMinShare(Resource.NONE));
          continue;
        }
        Resource attributed = shortfall(app.pending(), s.fairShareStarvation());
        if (StarvationMath.compare(leaf.policy(), cluster, attributed, pending) > 0) {
          attributed = shortfall(attributed, pending);
          pending = Resource.NONE;
        } else {
          pending = shortfall(pending, attributed);
        }
        appState.put(app.appId(), s.withMinShare(attributed));
        add(app.appId());
      }
    }

    /** Hadoop's {@code FSAppAttempt.fairShareStarvation}: computes, records and returns it. */
    private Resource fairShareStarvation(QueueSpec leaf, AppSnapshot app) {
      Resource target = min(StarvationMath.scale(fairShareOf(app), leaf.fairSharePreemptionThreshold()),
          app.demand());
      boolean below = StarvationMath.isBelow(leaf.policy(), cluster, app.usage(), target);
      AppStarvation s = appState.get(app.appId());
      long lastAt = below ? s.lastAtFairShare() : now;
      Resource starved = below && timedOut(leaf.fairSharePreemptionTimeout(), lastAt)
          ? shortfall(target, app.usage())
          : Resource.NONE;
      appState.put(app.appId(), s.withFairShare(lastAt, starved));
      return starved;
    }

    /** Hadoop's {@code FSLeafQueue.minShareStarvation}: the queue's shortfall once past its timeout. */
    private Resource minShareStarvation(QueueSpec leaf, List<AppSnapshot> inLeaf) {
      Resource usage = Resource.NONE;
      Resource demand = Resource.NONE;
      for (AppSnapshot app : inLeaf) {
        usage = usage.plus(app.usage());
        demand = demand.plus(app.demand());
      }
      demand = min(demand, QueueIndex.effectiveMax(leaf));
      Resource shortfall = shortfall(min(leaf.minShare(), demand), usage);
      long lastAt = isNone(shortfall) ? now : queueState.get(leaf.path());
      queueState.put(leaf.path(), lastAt);
      if (!timedOut(leaf.minSharePreemptionTimeout(), lastAt)) return Resource.NONE;
      if (!isNone(shortfall)) {
        starvedQueues.add(new StarvedQueue(leaf.path(), leaf.minShare(), usage, demand, shortfall,
            leaf.minSharePreemptionTimeout(), lastAt));
      }
      return shortfall;
    }

    private void add(String appId) {
      if (!toServe.contains(appId)) toServe.add(appId);
    }

    /** A null timeout is Hadoop's Long.MAX_VALUE default: never. */
    private boolean timedOut(Duration timeout, long lastAt) {
      return timeout != null && now - lastAt >= timeout.toMillis();
    }

    private Resource fairShareOf(AppSnapshot app) {
      return shares.apps().getOrDefault(app.appId(), Resource.NONE);
    }
  }

  /** An application as its leaf's policy orders it: weight 1, no min share. */
  private static Contender contender(AppSnapshot app) {
    return new Contender(app.appId(), app.submitTime(), app.priority(), 1.0, app.usage(), Resource.NONE, app.demand());
  }
}
