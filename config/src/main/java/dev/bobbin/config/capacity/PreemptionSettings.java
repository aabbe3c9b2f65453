package dev.bobbin.config.capacity;

import java.time.Duration;
import java.util.Objects;

/**
 * Proportional capacity preemption, as Hadoop's ProportionalCapacityPreemptionPolicy reads it from
 * yarn-site.xml (or capacity-scheduler.xml).
 *
 * @param enabled yarn.resourcemanager.scheduler.monitor.enable, with the proportional policy among
 *     yarn.resourcemanager.scheduler.monitor.policies
 * @param observeOnly yarn.resourcemanager.monitor.capacity.preemption.observe_only: plan and record
 *     each round, preempt nothing
 * @param monitoringInterval ….monitoring_interval: the time between rounds
 * @param maxWaitBeforeKill ….max_wait_before_kill: from telling an application to killing its container
 * @param totalPreemptionPerRound ….total_preemption_per_round: the most of the cluster one round takes
 * @param maxIgnoredOverCapacity ….max_ignored_over_capacity: the dead zone above a queue's ideal
 *     assignment within which nothing is taken from it
 * @param naturalTerminationFactor ….natural_termination_factor: the share of the computed amount a
 *     round takes, counting on containers ending by themselves for the rest
 */
public record PreemptionSettings(
    boolean enabled,
    boolean observeOnly,
    Duration monitoringInterval,
    Duration maxWaitBeforeKill,
    float totalPreemptionPerRound,
    double maxIgnoredOverCapacity,
    double naturalTerminationFactor) {

  /** Hadoop's defaults. */
  public static final PreemptionSettings HADOOP_DEFAULTS =
      new PreemptionSettings(false, false, Duration.ofMillis(3000), Duration.ofMillis(15000), 0.1f, 0.1, 0.2);

  public PreemptionSettings {
    Objects.requireNonNull(monitoringInterval, "monitoringInterval");
    Objects.requireNonNull(maxWaitBeforeKill, "maxWaitBeforeKill");
  }
}
