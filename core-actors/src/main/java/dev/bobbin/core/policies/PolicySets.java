package dev.bobbin.core.policies;

import com.typesafe.config.Config;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.capacity.SchedulerWideSettings;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.FifoPolicySet;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.capacity.CapacityPolicySet;
import dev.bobbin.core.policy.capacity.CapacitySpecs;
import dev.bobbin.core.policy.fair.FairPolicySet;

/**
 * Builds the policy set the configuration names: the one place that knows the families apart. It
 * stands above the families' packages, which know nothing of each other.
 */
public final class PolicySets {
  private PolicySets() {}

  /**
   * Reads the configuration of the policy {@code scheduler} names. For the capacity policy that is
   * {@code bobbin.scheduler.capacity} or the files it names; its warnings are logged as it is read.
   *
   * @throws SettingsException naming the bad key
   */
  public static PolicyConfig load(Config root, SchedulerSettings scheduler) {
    return switch (scheduler.policy()) {
      case FIFO -> new PolicyConfig(scheduler, null);
      case FAIR -> new PolicyConfig(scheduler,
          new FairSetup(FairSchedulerConfig.load(root), FairGlobalSettings.from(root)));
      case CAPACITY -> {
        CapacitySchedulerConfig capacity = CapacitySchedulerConfig.load(root);
        sameAllocationBounds(capacity.schedulerWide(), scheduler);
        CapacitySpecs.of(capacity);
        yield new PolicyConfig(scheduler, null, capacity);
      }
    };
  }

  public static PolicySet create(PolicyConfig config) {
    return switch (config.scheduler().policy()) {
      case FIFO -> FifoPolicySet.create(config.scheduler());
      case FAIR -> {
        if (config.fair() == null) throw new IllegalArgumentException("the fair policy needs its configuration");
        yield new FairPolicySet(config.fair(), AllocationLimits.of(config.scheduler()).minimum());
      }
      case CAPACITY -> {
        if (config.capacity() == null) throw new IllegalArgumentException("the capacity policy needs its configuration");
        yield new CapacityPolicySet(config.capacity());
      }
    };
  }

  /**
   * The scheduler rounds every ask to bobbin.scheduler.minimum-allocation and caps it at
   * maximum-allocation; a yarn-site.xml that says otherwise would have the capacity mathematics
   * round to other steps, so the two must agree.
   */
  private static void sameAllocationBounds(SchedulerWideSettings capacity, SchedulerSettings scheduler) {
    check("yarn.scheduler.minimum-allocation-mb", capacity.minimumAllocationMb(),
        "bobbin.scheduler.minimum-allocation.memory", scheduler.minimumAllocationMb());
    check("yarn.scheduler.minimum-allocation-vcores", capacity.minimumAllocationVcores(),
        "bobbin.scheduler.minimum-allocation.vcores", scheduler.minimumAllocationVcores());
    check("yarn.scheduler.maximum-allocation-mb", capacity.maximumAllocationMb(),
        "bobbin.scheduler.maximum-allocation.memory", scheduler.maximumAllocationMb());
    check("yarn.scheduler.maximum-allocation-vcores", capacity.maximumAllocationVcores(),
        "bobbin.scheduler.maximum-allocation.vcores", scheduler.maximumAllocationVcores());
  }

  private static void check(String hadoopKey, long hadoop, String bobbinKey, long bobbin) {
    if (hadoop != bobbin) {
      throw new SettingsException(hadoopKey, "is " + hadoop + " in the yarn-site file but " + bobbinKey + " is "
          + bobbin + "; the scheduler rounds asks with the latter, so set both alike");
    }
  }
}
