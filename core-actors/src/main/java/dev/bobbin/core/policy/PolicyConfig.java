package dev.bobbin.core.policy;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.fair.FairSetup;

/**
 * What a policy set is built from: the scheduler's settings, and the configuration of the policy
 * they name ({@code PolicySets} reads it).
 *
 * @param fair the Fair policy's queues and switches; null unless the policy is fair
 * @param capacity the Capacity policy's queues and settings; null unless the policy is capacity
 */
public record PolicyConfig(SchedulerSettings scheduler, FairSetup fair, CapacitySchedulerConfig capacity) {
  /** For the FIFO and Fair policies. */
  public PolicyConfig(SchedulerSettings scheduler, FairSetup fair) {
    this(scheduler, fair, null);
  }
}
