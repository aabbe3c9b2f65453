package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Result of one starvation pass: the starved applications in the order preemption should serve them,
 * the leaf queues starved for min share, and the clocks to hand to the next pass.
 *
 * <p>An application can appear twice, once per {@link Kind}: min share is handed out only for the
 * part of its pending demand that fair-share starvation does not already cover.
 */
public record Starvation(List<StarvedApp> apps, List<StarvedQueue> queues, StarvationClocks clocks) {
  public static final Starvation NONE = new Starvation(List.of(), List.of(), StarvationClocks.EMPTY);

  public Starvation {
    apps = List.copyOf(apps);
    queues = List.copyOf(queues);
  }

  public enum Kind { FAIR_SHARE, MIN_SHARE }

  /**
   * One reason an application is owed resources.
   *
   * @param starvedFor how much preemption should win for it (never more than its pending demand)
   * @param fairShare the application's instantaneous fair share
   * @param usage the application's usage when detected
   * @param threshold FAIR_SHARE: the queue's fairSharePreemptionThreshold; MIN_SHARE: 1.0 (the whole
   *     min share), the queue's numbers being in {@link Starvation#queues()}
   * @param timeout how long the condition had to hold (the queue's fair- or min-share preemption timeout)
   * @param belowSince when the condition started to hold without a break (epoch millis)
   */
  public record StarvedApp(
      String appId, String queuePath, Resource starvedFor, Kind kind, Resource fairShare, Resource usage,
      double threshold, Duration timeout, long belowSince) {

    public String reason() {
      if (kind == Kind.FAIR_SHARE) {
        return String.format(Locale.ROOT,
            "%s in %s used %s, below %.2f x its fair share %s since %d for at least %s; starved for %s",
            appId, queuePath, usage, threshold, fairShare, belowSince, timeout, starvedFor);
      }
      return String.format(Locale.ROOT,
          "%s in %s is owed %s of its queue's min-share shortfall (queue below min share since %d for at least %s;"
              + " app used %s, fair share %s)",
          appId, queuePath, starvedFor, belowSince, timeout, usage, fairShare);
    }
  }

  /**
   * A leaf queue below its min share for at least its minSharePreemptionTimeout.
   *
   * @param demand the queue's usage plus pending, capped by its max share
   * @param shortfall {@code min(minShare, demand) - usage}, before fair-share starvation is taken out
   */
  public record StarvedQueue(
      String path, Resource minShare, Resource usage, Resource demand, Resource shortfall, Duration timeout,
      long belowSince) {

    public String reason() {
      return String.format(Locale.ROOT,
          "queue %s used %s, below min share %s (demand %s) since %d for at least %s; short %s",
          path, usage, minShare, demand, belowSince, timeout, shortfall);
    }
  }

  public boolean isEmpty() {
    return apps.isEmpty();
  }

  public List<StarvedApp> forApp(String appId) {
    return apps.stream().filter(a -> a.appId().equals(appId)).toList();
  }

  public Optional<StarvedQueue> queue(String path) {
    return queues.stream().filter(q -> q.path().equals(path)).findFirst();
  }
}
