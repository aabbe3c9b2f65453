package dev.bobbin.core.policy;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.protocol.Resource;

/**
 * The scheduler's minimum and maximum allocation ({@code yarn.scheduler.minimum-allocation-mb}
 * and the rest), and what they make of an AM's ask.
 */
public record AllocationLimits(Resource minimum, Resource maximum) {
  public static AllocationLimits of(SchedulerSettings s) {
    return new AllocationLimits(new Resource(s.minimumAllocationMb(), s.minimumAllocationVcores()),
        new Resource(s.maximumAllocationMb(), s.maximumAllocationVcores()));
  }

  /**
   * Rounds an ask up to a multiple of the minimum allocation, as YARN's resource calculator does,
   * and caps it at the maximum.
   */
  public Resource normalize(Resource ask) {
    long memory = roundUp(Math.max(ask.memory(), minimum.memory()), minimum.memory());
    long vCores = roundUp(Math.max(ask.vCores(), minimum.vCores()), minimum.vCores());
    return new Resource(Math.min(memory, maximum.memory()), (int) Math.min(vCores, maximum.vCores()));
  }

  private static long roundUp(long v, long step) {
    return step <= 0 ? v : ((v + step - 1) / step) * step;
  }
}
