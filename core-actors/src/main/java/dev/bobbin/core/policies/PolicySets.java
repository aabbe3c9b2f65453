package dev.bobbin.core.policies;

import com.typesafe.config.Config;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.FifoPolicySet;
import dev.bobbin.core.policy.fair.FairPolicySet;
import dev.bobbin.config.fair.FairSetup;

/**
 * Builds the policy set the configuration names: the one place that knows the families apart. It
 * stands above the families' packages, which know nothing of each other.
 */
public final class PolicySets {
  private PolicySets() {}

  /**
   * Reads the configuration of the policy {@code scheduler} names.
   *
   * @throws dev.bobbin.config.SettingsException naming the bad key
   */
  public static PolicyConfig load(Config root, SchedulerSettings scheduler) {
    return switch (scheduler.policy()) {
      case FIFO -> new PolicyConfig(scheduler, null);
      case FAIR -> new PolicyConfig(scheduler,
          new FairSetup(FairSchedulerConfig.load(root), FairGlobalSettings.from(root)));
    };
  }

  public static PolicySet create(PolicyConfig config) {
    return switch (config.scheduler().policy()) {
      case FIFO -> FifoPolicySet.create(config.scheduler());
      case FAIR -> {
        if (config.fair() == null) throw new IllegalArgumentException("the fair policy needs its configuration");
        yield new FairPolicySet(config.fair(), AllocationLimits.of(config.scheduler()).minimum());
      }
    };
  }
}
