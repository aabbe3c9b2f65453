package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.protocol.Resource;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What Hadoop's FairScheduler keeps on its application attempts and leaf queues between updates for
 * starvation, carried from one {@link StarvationDetector} pass to the next by {@link FairPolicySet}.
 *
 * <p>The clocks are Hadoop's "last time at share" values, not "below since" values: an application's
 * {@code lastAtFairShare} is the last update at which it was found at or above its threshold (its
 * start before that), so its timeout counts from there. They move only when an update checks the
 * application or queue; updates skipped because the cluster is not busy enough, or an application
 * left out for its recheck delay, leave them where they were, as in Hadoop.
 *
 * @param apps per application id
 * @param queuesLastAtMinShare per leaf path, the last update at which the queue was not short of its
 *     min share (when the queue was first seen before that)
 * @param origin when this state began (the scheduler's first update, or the one after a restore):
 *     applications submitted earlier count as started then, as Hadoop's attempts recreated by a
 *     restarted ResourceManager do
 * @param lastChecked the last update that checked starvation (preemption on, cluster busy enough)
 */
public record StarvationState(
    Map<String, AppStarvation> apps, Map<String, Long> queuesLastAtMinShare, long origin, long lastChecked) {

  public StarvationState {
    apps = Map.copyOf(apps);
    queuesLastAtMinShare = Map.copyOf(queuesLastAtMinShare);
  }

  /**
   * One application attempt's starvation fields, Hadoop's {@code FSAppAttempt} ones.
   *
   * @param lastAtFairShare {@code lastTimeAtFairShare}
   * @param fairShareStarvation the last computed fair-share starvation; left as it was by updates
   *     that do not compute it (Hadoop reads such stale values too)
   * @param minShareStarvation the part of its queue's min-share starvation last attributed to it
   * @param recheckAt {@code nextStarvationCheck}: until then it is not checked for starvation
   */
  public record AppStarvation(
      long lastAtFairShare, Resource fairShareStarvation, Resource minShareStarvation, long recheckAt) {

    static AppStarvation startedAt(long start) {
      return new AppStarvation(start, Resource.NONE, Resource.NONE, 0);
    }

    public Resource starvation() {
      return fairShareStarvation.plus(minShareStarvation);
    }

    AppStarvation withFairShare(long lastAt, Resource starvation) {
      return new AppStarvation(lastAt, starvation, minShareStarvation, recheckAt);
    }

    AppStarvation withMinShare(Resource starvation) {
      return new AppStarvation(lastAtFairShare, fairShareStarvation, starvation, recheckAt);
    }

    AppStarvation recheckAt(long at) {
      return new AppStarvation(lastAtFairShare, fairShareStarvation, minShareStarvation, at);
    }
  }

  /** A scheduler's state before its first update at {@code now}. */
  public static StarvationState startingAt(long now) {
    return new StarvationState(Map.of(), Map.of(), now, now);
  }

  /**
   * What a scheduler that took over goes on from: the clocks its predecessor journalled
   * ({@link #clocks}), the rest as if everything had started at {@code now}.
   */
  public static StarvationState restored(StarvationClocks clocks, long now) {
    Map<String, AppStarvation> apps = new HashMap<>();
    clocks.appsBelowSince().forEach((id, at) -> apps.put(id, AppStarvation.startedAt(Math.min(at, now))));
    clocks.appsRecheckAfter().forEach((id, at) ->
        apps.put(id, apps.getOrDefault(id, AppStarvation.startedAt(now)).recheckAt(at)));
    Map<String, Long> queues = new HashMap<>();
    clocks.queuesBelowSince().forEach((path, at) -> queues.put(path, Math.min(at, now)));
    return new StarvationState(apps, queues, now, now);
  }

  /**
   * The part worth journalling, which changes only when an application or queue starts or stops
   * being left behind: clocks that the last check did not move forward (those of applications and
   * queues below their share, and of applications it skipped), and recheck times still ahead.
   */
  public StarvationClocks clocks(long now) {
    Map<String, Long> appClocks = new TreeMap<>();
    Map<String, Long> recheck = new TreeMap<>();
    apps.forEach((id, a) -> {
      if (a.lastAtFairShare() < lastChecked) appClocks.put(id, a.lastAtFairShare());
      if (a.recheckAt() > now) recheck.put(id, a.recheckAt());
    });
    Map<String, Long> queueClocks = new TreeMap<>();
    queuesLastAtMinShare.forEach((path, at) -> {
      if (at < lastChecked) queueClocks.put(path, at);
    });
    return new StarvationClocks(appClocks, queueClocks, recheck);
  }

  /**
   * Follows the applications and leaf queues there are now: new ones start their clocks (an
   * application at its submission, not before {@link #origin}; a queue now), those gone are dropped.
   * No clock of a known one moves.
   */
  StarvationState following(Collection<AppSnapshot> current, Set<String> leaves, long now) {
    Map<String, AppStarvation> nextApps = new HashMap<>();
    for (AppSnapshot app : current) {
      AppStarvation known = apps.get(app.appId());
      nextApps.put(app.appId(), known != null ? known
          : AppStarvation.startedAt(Math.min(now, Math.max(origin, app.submitTime()))));
    }
    Map<String, Long> nextQueues = new HashMap<>();
    for (String leaf : leaves) nextQueues.put(leaf, queuesLastAtMinShare.getOrDefault(leaf, now));
    return new StarvationState(nextApps, nextQueues, origin, lastChecked);
  }

  /** The applications whose starvation preemption served are not checked again before {@code at}. */
  public StarvationState servedUntil(Collection<String> appIds, long at) {
    Map<String, AppStarvation> next = new HashMap<>(apps);
    for (String id : appIds) next.computeIfPresent(id, (k, a) -> a.recheckAt(at));
    return new StarvationState(next, queuesLastAtMinShare, origin, lastChecked);
  }

  public AppStarvation app(String appId) {
    return apps.get(appId);
  }
}
