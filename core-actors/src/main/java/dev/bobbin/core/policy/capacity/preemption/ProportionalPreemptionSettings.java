package dev.bobbin.core.policy.capacity.preemption;

import java.time.Duration;
import java.util.Objects;

/**
 * The knobs of Hadoop's {@code ProportionalCapacityPreemptionPolicy}
 * ({@code yarn.resourcemanager.monitor.capacity.preemption.*}), as the policy reads them.
 *
 * @param observeOnly compute and report each round, mark and kill nothing
 * @param monitoringInterval the time between rounds; read by whoever runs the rounds
 * @param maxWaitBeforeKill from telling an application that a container is wanted back to killing it
 * @param totalPreemptionPerRound the most of the cluster one round may take, as a fraction (0.1 is 10 %)
 * @param maxIgnoredOverCapacity a leaf is left alone while its usage is at most its guarantee times
 *     one plus this (the dead zone)
 * @param naturalTerminationFactor the part of a leaf's computed excess one round takes, counting on
 *     containers ending by themselves for the rest
 */
public record ProportionalPreemptionSettings(
    boolean observeOnly,
    Duration monitoringInterval,
    Duration maxWaitBeforeKill,
    float totalPreemptionPerRound,
    double maxIgnoredOverCapacity,
    double naturalTerminationFactor) {

  /** Hadoop's defaults: 3 s between rounds, 15 s before a kill, 10 % a round, 10 % dead zone, factor 0.2. */
  public static final ProportionalPreemptionSettings HADOOP_DEFAULTS = new ProportionalPreemptionSettings(
      false, Duration.ofMillis(3000), Duration.ofMillis(15000), 0.1f, 0.1, 0.2);

  public ProportionalPreemptionSettings {
    Objects.requireNonNull(monitoringInterval, "monitoringInterval");
    Objects.requireNonNull(maxWaitBeforeKill, "maxWaitBeforeKill");
    if (maxWaitBeforeKill.isNegative()) {
      throw new IllegalArgumentException("max_wait_before_kill must not be negative, got " + maxWaitBeforeKill);
    }
    if (!(totalPreemptionPerRound >= 0f)) {
      throw new IllegalArgumentException("total_preemption_per_round must not be negative, got "
          + totalPreemptionPerRound);
    }
    if (!(maxIgnoredOverCapacity >= 0)) {
      throw new IllegalArgumentException("max_ignored_over_capacity must not be negative, got "
          + maxIgnoredOverCapacity);
    }
    if (!(naturalTerminationFactor >= 0)) {
      throw new IllegalArgumentException("natural_termination_factor must not be negative, got "
          + naturalTerminationFactor);
    }
  }

  public ProportionalPreemptionSettings withObserveOnly(boolean observe) {
    return new ProportionalPreemptionSettings(observe, monitoringInterval, maxWaitBeforeKill, totalPreemptionPerRound,
        maxIgnoredOverCapacity, naturalTerminationFactor);
  }

  public ProportionalPreemptionSettings withMaxWaitBeforeKill(Duration wait) {
    return new ProportionalPreemptionSettings(observeOnly, monitoringInterval, wait, totalPreemptionPerRound,
        maxIgnoredOverCapacity, naturalTerminationFactor);
  }

  public ProportionalPreemptionSettings withTotalPreemptionPerRound(float fraction) {
    return new ProportionalPreemptionSettings(observeOnly, monitoringInterval, maxWaitBeforeKill, fraction,
        maxIgnoredOverCapacity, naturalTerminationFactor);
  }

  public ProportionalPreemptionSettings withMaxIgnoredOverCapacity(double fraction) {
    return new ProportionalPreemptionSettings(observeOnly, monitoringInterval, maxWaitBeforeKill,
        totalPreemptionPerRound, fraction, naturalTerminationFactor);
  }

  public ProportionalPreemptionSettings withNaturalTerminationFactor(double factor) {
    return new ProportionalPreemptionSettings(observeOnly, monitoringInterval, maxWaitBeforeKill,
        totalPreemptionPerRound, maxIgnoredOverCapacity, factor);
  }
}
