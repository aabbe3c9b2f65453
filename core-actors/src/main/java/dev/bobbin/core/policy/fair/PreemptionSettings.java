package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.Objects;

/**
 * Cluster-wide preemption switches, Hadoop's {@code yarn.scheduler.fair.preemption},
 * {@code ...preemption.cluster-utilization-threshold} and {@code waitTimeBeforeKill}, and the delay
 * Hadoop's preemption thread derives from them.
 *
 * @param clusterUtilizationThreshold starvation is tracked and preemption runs only while the larger
 *     of memory and vcore utilization is strictly above this fraction
 * @param waitBeforeKill how long an AM is warned before its preempted containers are killed; used by
 *     the scheduler actor, not by the planner
 * @param recheckDelay how long an application whose starvation was served is left out of starvation
 *     checks (Hadoop's {@code delayBeforeNextStarvationCheck}, see {@link #recheckDelay(Duration)})
 */
public record PreemptionSettings(
    boolean enabled, double clusterUtilizationThreshold, Duration waitBeforeKill, Duration recheckDelay) {
  public static final double DEFAULT_UTILIZATION_THRESHOLD = 0.8;
  public static final Duration DEFAULT_WAIT_BEFORE_KILL = Duration.ofSeconds(15);
  /**
   * Hadoop's {@code yarn.scheduler.fair.waitTimeBeforeNextStarvationCheck} default, which Hadoop
   * keeps out of its documentation; Bobbin takes no key for it.
   */
  public static final Duration WAIT_BEFORE_NEXT_STARVATION_CHECK = Duration.ofSeconds(10);

  /** Hadoop's defaults: preemption off. */
  public static final PreemptionSettings DEFAULTS =
      new PreemptionSettings(false, DEFAULT_UTILIZATION_THRESHOLD, DEFAULT_WAIT_BEFORE_KILL);

  public PreemptionSettings {
    Objects.requireNonNull(waitBeforeKill, "waitBeforeKill");
    Objects.requireNonNull(recheckDelay, "recheckDelay");
    if (!(clusterUtilizationThreshold >= 0 && clusterUtilizationThreshold <= 1)) {
      throw new IllegalArgumentException(
          "clusterUtilizationThreshold must be within [0, 1], got " + clusterUtilizationThreshold);
    }
    if (waitBeforeKill.isNegative()) {
      throw new IllegalArgumentException("waitBeforeKill must not be negative, got " + waitBeforeKill);
    }
  }

  /** With the recheck delay Hadoop derives from the kill wait. */
  public PreemptionSettings(boolean enabled, double clusterUtilizationThreshold, Duration waitBeforeKill) {
    this(enabled, clusterUtilizationThreshold, waitBeforeKill, recheckDelay(waitBeforeKill));
  }

  public static PreemptionSettings enabledWithDefaults() {
    return new PreemptionSettings(true, DEFAULT_UTILIZATION_THRESHOLD, DEFAULT_WAIT_BEFORE_KILL);
  }

  /**
   * Hadoop's {@code FSPreemptionThread} delay before an application it served may be found starved
   * again: the kill wait, an allowance for the freed space to be allocated, and
   * {@link #WAIT_BEFORE_NEXT_STARVATION_CHECK}: 15 s + 10 s = 25 s with the defaults. Hadoop means the
   * allowance to be four NodeManager heartbeats (without continuous scheduling, which Bobbin does not
   * have), but its FairScheduler creates the preemption thread before it reads the heartbeat interval,
   * so the allowance is zero in every running Hadoop 3.4 ResourceManager; Bobbin takes it as zero too.
   */
  public static Duration recheckDelay(Duration waitBeforeKill) {
    return waitBeforeKill.plus(WAIT_BEFORE_NEXT_STARVATION_CHECK);
  }

  /**
   * Hadoop's {@code FairScheduler.shouldAttemptPreemption}: preemption is on and the larger of memory
   * and vcore utilization, computed in single precision as Hadoop does, is strictly above the
   * threshold (itself a float in Hadoop).
   */
  public boolean shouldAttempt(Resource used, Resource capacity) {
    return enabled && (float) clusterUtilizationThreshold < utilization(used, capacity);
  }

  /**
   * Hadoop's utilization figure: {@code max(usedMB / clusterMB, usedVcores / clusterVcores)} in
   * floats, so an empty cluster gives NaN (never above any threshold).
   */
  public static float utilization(Resource used, Resource capacity) {
    return Math.max((float) used.memory() / capacity.memory(), (float) used.vCores() / capacity.vCores());
  }
}
