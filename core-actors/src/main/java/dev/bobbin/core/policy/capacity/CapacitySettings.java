package dev.bobbin.core.policy.capacity;

import dev.bobbin.protocol.Resource;
import java.util.Objects;

/**
 * The scheduler-wide values the capacity mathematics reads.
 *
 * @param resourceMath {@code yarn.scheduler.capacity.resource-calculator}
 * @param minimumAllocation {@code yarn.scheduler.minimum-allocation-mb/-vcores}: what limits are
 *     rounded to, and the smallest container
 * @param maximumAllocation {@code yarn.scheduler.maximum-allocation-mb/-vcores}
 * @param maximumSystemApplications {@code yarn.scheduler.capacity.maximum-applications}, 10000 by default
 * @param globalMaximumApplicationsPerQueue {@code yarn.scheduler.capacity.global-queue-max-application};
 *     -1 when not set
 */
public record CapacitySettings(
    ResourceMath resourceMath,
    Resource minimumAllocation,
    Resource maximumAllocation,
    int maximumSystemApplications,
    int globalMaximumApplicationsPerQueue) {
  public static final int DEFAULT_MAXIMUM_SYSTEM_APPLICATIONS = 10000;

  public CapacitySettings {
    Objects.requireNonNull(resourceMath, "resourceMath");
    Objects.requireNonNull(minimumAllocation, "minimumAllocation");
    Objects.requireNonNull(maximumAllocation, "maximumAllocation");
    if (minimumAllocation.memory() <= 0 || minimumAllocation.vCores() <= 0) {
      throw new IllegalArgumentException("the minimum allocation must have memory and vcores, got " + minimumAllocation);
    }
    if (!maximumAllocation.fits(minimumAllocation)) {
      throw new IllegalArgumentException("the maximum allocation " + maximumAllocation
          + " is below the minimum allocation " + minimumAllocation);
    }
  }

  /** Hadoop's defaults: 1024 MB and 1 vcore to 8192 MB and 4 vcores, 10000 applications. */
  public static CapacitySettings defaults(ResourceMath resourceMath) {
    return new CapacitySettings(resourceMath, new Resource(1024, 1), new Resource(8192, 4),
        DEFAULT_MAXIMUM_SYSTEM_APPLICATIONS, -1);
  }

  public CapacitySettings withAllocation(Resource minimum, Resource maximum) {
    return new CapacitySettings(resourceMath, minimum, maximum, maximumSystemApplications,
        globalMaximumApplicationsPerQueue);
  }

  public CapacitySettings withApplications(int maximumSystem, int globalPerQueue) {
    return new CapacitySettings(resourceMath, minimumAllocation, maximumAllocation, maximumSystem, globalPerQueue);
  }
}
