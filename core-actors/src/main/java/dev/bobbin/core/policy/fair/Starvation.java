package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Result of one starvation pass: the starved applications in the order preemption serves them, the
 * leaf queues short of their min share, and the state to hand to the next pass.
 */
public record Starvation(List<StarvedApp> apps, List<StarvedQueue> queues, StarvationState state) {

  public Starvation {
    apps = List.copyOf(apps);
    queues = List.copyOf(queues);
  }

  /** What an application is starved of: the names preemption records carry. */
  public enum Kind { FAIR_SHARE, MIN_SHARE, FAIR_AND_MIN_SHARE }

  /**
   * A starved application, once, with both parts of its starvation as Hadoop's
   * {@code FSAppAttempt.getStarvation} adds them.
   *
   * @param fairShareStarvation what it lacks to reach {@code min(threshold x fairShare, demand)}
   *     after its timeout; as last computed, which for an application the last pass did not reach
   *     can be an earlier pass's value (Hadoop reads it so too)
   * @param minShareStarvation the part of its queue's min-share starvation attributed to it
   * @param fairShare the application's instantaneous fair share
   * @param usage and {@code demand} (usage plus pending) when detected
   * @param threshold the queue's fairSharePreemptionThreshold
   * @param timeout the queue's fairSharePreemptionTimeout, null for never
   * @param lastAtFairShare the last check that found it at or above its threshold (epoch millis)
   */
  public record StarvedApp(
      String appId, String queuePath, Resource fairShareStarvation, Resource minShareStarvation,
      Resource fairShare, Resource usage, Resource demand, double threshold, Duration timeout,
      long lastAtFairShare) {

    /** The amount preemption works towards, in whole containers of the application's requests. */
    public Resource starvedFor() {
      return fairShareStarvation.plus(minShareStarvation);
    }

    public Kind kind() {
      boolean fair = !StarvationMath.isNone(fairShareStarvation);
      boolean min = !StarvationMath.isNone(minShareStarvation);
      return fair && min ? Kind.FAIR_AND_MIN_SHARE : fair ? Kind.FAIR_SHARE : Kind.MIN_SHARE;
    }

    public String reason() {
      return String.format(Locale.ROOT,
          "%s in %s (usage %s, demand %s, fair share %s) starved for %s: fair share %s (below %.2f x its fair share"
              + " since it was last at it at %d, timeout %s), min share %s",
          appId, queuePath, usage, demand, fairShare, starvedFor(), fairShareStarvation, threshold, lastAtFairShare,
          timeout, minShareStarvation);
    }
  }

  /**
   * A leaf queue short of {@code min(minShare, demand)} for at least its minSharePreemptionTimeout.
   *
   * @param demand the queue's usage plus pending, capped by its max share
   * @param shortfall {@code min(minShare, demand) - usage}, before fair-share starvation is taken out
   * @param lastAtMinShare the last check that found it not short (epoch millis)
   */
  public record StarvedQueue(
      String path, Resource minShare, Resource usage, Resource demand, Resource shortfall, Duration timeout,
      long lastAtMinShare) {

    public String reason() {
      return String.format(Locale.ROOT,
          "queue %s used %s, below min share %s (demand %s) since it was last at it at %d, timeout %s; short %s",
          path, usage, minShare, demand, lastAtMinShare, timeout, shortfall);
    }
  }

  public boolean isEmpty() {
    return apps.isEmpty();
  }

  public Optional<StarvedApp> forApp(String appId) {
    return apps.stream().filter(a -> a.appId().equals(appId)).findFirst();
  }

  public Optional<StarvedQueue> queue(String path) {
    return queues.stream().filter(q -> q.path().equals(path)).findFirst();
  }
}
