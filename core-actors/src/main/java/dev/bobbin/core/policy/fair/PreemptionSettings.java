package dev.bobbin.core.policy.fair;

import java.time.Duration;
import java.util.Objects;

/**
 * Cluster-wide preemption switches, Hadoop's {@code yarn.scheduler.fair.preemption},
 * {@code ...preemption.cluster-utilization-threshold} and {@code waitTimeBeforeKill}.
 *
 * @param clusterUtilizationThreshold preemption runs only while the larger of memory and vcore
 *     utilization is strictly above this fraction
 * @param waitBeforeKill how long an AM is warned before its preempted containers are killed; used by
 *     the scheduler actor, not by the planner
 */
public record PreemptionSettings(boolean enabled, double clusterUtilizationThreshold, Duration waitBeforeKill) {
  public static final double DEFAULT_UTILIZATION_THRESHOLD = 0.8;
  public static final Duration DEFAULT_WAIT_BEFORE_KILL = Duration.ofSeconds(15);

  /** Hadoop's defaults: preemption off. */
  public static final PreemptionSettings DEFAULTS =
      new PreemptionSettings(false, DEFAULT_UTILIZATION_THRESHOLD, DEFAULT_WAIT_BEFORE_KILL);

  public PreemptionSettings {
    Objects.requireNonNull(waitBeforeKill, "waitBeforeKill");
    if (!(clusterUtilizationThreshold >= 0 && clusterUtilizationThreshold <= 1)) {
      throw new IllegalArgumentException(
          "clusterUtilizationThreshold must be within [0, 1], got " + clusterUtilizationThreshold);
    }
    if (waitBeforeKill.isNegative()) {
      throw new IllegalArgumentException("waitBeforeKill must not be negative, got " + waitBeforeKill);
    }
  }

  public static PreemptionSettings enabledWithDefaults() {
    return new PreemptionSettings(true, DEFAULT_UTILIZATION_THRESHOLD, DEFAULT_WAIT_BEFORE_KILL);
  }
}
