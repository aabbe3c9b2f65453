package dev.bobbin.config.capacity;

import java.util.Objects;

/**
 * The Capacity Scheduler's settings that are not per queue. Memory in MB.
 *
 * @param maximumApplications yarn.scheduler.capacity.maximum-applications: applications running
 *     and pending in the whole cluster; a leaf queue without its own limit gets its share of it
 * @param maximumAmResourcePercent yarn.scheduler.capacity.maximum-am-resource-percent: the default
 *     share (0 to 1) of a leaf queue's resources its ApplicationMasters may hold
 * @param resourceCalculator yarn.scheduler.capacity.resource-calculator
 * @param nodeLocalityDelay yarn.scheduler.capacity.node-locality-delay: missed scheduling
 *     opportunities before a node-local request may go rack-local
 * @param rackLocalityAdditionalDelay yarn.scheduler.capacity.rack-locality-additional-delay: missed
 *     opportunities beyond node-locality-delay before it may go off-switch; -1 lets Hadoop's own
 *     estimate decide (the request's size relative to the cluster's nodes)
 * @param rackLocalityFullReset yarn.scheduler.capacity.rack-locality-full-reset: whether a
 *     rack-local container starts a request's missed opportunities again, as a node-local one does
 * @param reservationsContinueLooking yarn.scheduler.capacity.reservations-continue-looking: whether an
 *     application holding nodes reserved may still be placed elsewhere, giving up one of them
 * @param maxApplicationPriority yarn.cluster.max-application-priority: the cap on application priorities
 * @param minimumAllocationMb yarn.scheduler.minimum-allocation-mb
 * @param minimumAllocationVcores yarn.scheduler.minimum-allocation-vcores
 * @param maximumAllocationMb yarn.scheduler.maximum-allocation-mb
 * @param maximumAllocationVcores yarn.scheduler.maximum-allocation-vcores
 */
public record SchedulerWideSettings(
    int maximumApplications,
    float maximumAmResourcePercent,
    ResourceCalculator resourceCalculator,
    int nodeLocalityDelay,
    int rackLocalityAdditionalDelay,
    boolean rackLocalityFullReset,
    boolean reservationsContinueLooking,
    int maxApplicationPriority,
    long minimumAllocationMb,
    int minimumAllocationVcores,
    long maximumAllocationMb,
    int maximumAllocationVcores) {

  /** Hadoop's defaults. */
  public static final SchedulerWideSettings HADOOP_DEFAULTS =
      new SchedulerWideSettings(10_000, 0.1f, ResourceCalculator.DEFAULT, 40, -1, true, true, 0, 1024, 1, 8192, 4);

  public SchedulerWideSettings {
    Objects.requireNonNull(resourceCalculator, "resourceCalculator");
  }
}
