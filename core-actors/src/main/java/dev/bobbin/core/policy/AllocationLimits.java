package dev.bobbin.core.policy;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.protocol.Resource;

/**
 * The scheduler's minimum and maximum allocation ({@code yarn.scheduler.minimum-allocation-mb}
 * and the rest), and what they make of an AM's ask.
 *
 * @param memoryOnly sizes are counted in memory alone, as Hadoop's DefaultResourceCalculator counts
 *     them: every container gets one virtual core, whatever was asked
 */
public record AllocationLimits(Resource minimum, Resource maximum, boolean memoryOnly) {
  public AllocationLimits(Resource minimum, Resource maximum) {
    this(minimum, maximum, false);
  }

  public static AllocationLimits of(SchedulerSettings s) {
    return new AllocationLimits(new Resource(s.minimumAllocationMb(), s.minimumAllocationVcores()),
        new Resource(s.maximumAllocationMb(), s.maximumAllocationVcores()));
  }

  /**
   * Rounds an ask up to a multiple of the minimum allocation, as YARN's resource calculator does,
   * and caps it at the maximum.
   */
  public Resource normalize(Resource ask) {
    long memory = Math.min(roundUp(Math.max(ask.memory(), minimum.memory()), minimum.memory()), maximum.memory());
    if (memoryOnly) return new Resource(memory, memory > 0 ? 1 : 0);
    long vCores = roundUp(Math.max(ask.vCores(), minimum.vCores()), minimum.vCores());
    return new Resource(memory, (int) Math.min(vCores, maximum.vCores()));
  }

  /** Whether a node with {@code free} space can take a container of {@code size} under these limits. */
  public boolean fits(Resource size, Resource free) {
    return memoryOnly ? size.memory() <= free.memory() : free.fits(size);
  }

  private static long roundUp(long v, long step) {
    return step <= 0 ? v : ((v + step - 1) / step) * step;
  }
}
