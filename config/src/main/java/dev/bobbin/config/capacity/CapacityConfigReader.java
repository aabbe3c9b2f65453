package dev.bobbin.config.capacity;

import static dev.bobbin.config.capacity.CapacityKeys.APPLICATION_MAPPINGS;
import static dev.bobbin.config.capacity.CapacityKeys.GLOBAL_QUEUE_MAX_APPLICATION;
import static dev.bobbin.config.capacity.CapacityKeys.LEGACY_QUEUE_MODE;
import static dev.bobbin.config.capacity.CapacityKeys.MAPPING_RULE_FORMAT;
import static dev.bobbin.config.capacity.CapacityKeys.MAXIMUM_ALLOCATION_MB;
import static dev.bobbin.config.capacity.CapacityKeys.MAXIMUM_ALLOCATION_VCORES;
import static dev.bobbin.config.capacity.CapacityKeys.MAXIMUM_AM_RESOURCE_PERCENT;
import static dev.bobbin.config.capacity.CapacityKeys.MAXIMUM_APPLICATIONS;
import static dev.bobbin.config.capacity.CapacityKeys.MAX_APPLICATION_PRIORITY;
import static dev.bobbin.config.capacity.CapacityKeys.MAX_IGNORED_OVER_CAPACITY;
import static dev.bobbin.config.capacity.CapacityKeys.MAX_WAIT_BEFORE_KILL;
import static dev.bobbin.config.capacity.CapacityKeys.MINIMUM_ALLOCATION_MB;
import static dev.bobbin.config.capacity.CapacityKeys.MINIMUM_ALLOCATION_VCORES;
import static dev.bobbin.config.capacity.CapacityKeys.MINIMUM_USER_LIMIT_PERCENT;
import static dev.bobbin.config.capacity.CapacityKeys.MONITORING_INTERVAL;
import static dev.bobbin.config.capacity.CapacityKeys.MONITOR_ENABLE;
import static dev.bobbin.config.capacity.CapacityKeys.MONITOR_POLICIES;
import static dev.bobbin.config.capacity.CapacityKeys.NATURAL_TERMINATION_FACTOR;
import static dev.bobbin.config.capacity.CapacityKeys.NODE_LOCALITY_DELAY;
import static dev.bobbin.config.capacity.CapacityKeys.OBSERVE_ONLY;
import static dev.bobbin.config.capacity.CapacityKeys.PROPORTIONAL_POLICY;
import static dev.bobbin.config.capacity.CapacityKeys.QUEUE_MAPPINGS;
import static dev.bobbin.config.capacity.CapacityKeys.QUEUE_MAPPINGS_OVERRIDE;
import static dev.bobbin.config.capacity.CapacityKeys.RACK_LOCALITY_ADDITIONAL_DELAY;
import static dev.bobbin.config.capacity.CapacityKeys.RACK_LOCALITY_FULL_RESET;
import static dev.bobbin.config.capacity.CapacityKeys.RESERVATIONS_CONTINUE_LOOKING;
import static dev.bobbin.config.capacity.CapacityKeys.RESOURCE_CALCULATOR;
import static dev.bobbin.config.capacity.CapacityKeys.TOTAL_PREEMPTION_PER_ROUND;
import static dev.bobbin.config.capacity.CapacityKeys.USER_LIMIT_FACTOR;

import dev.bobbin.config.SettingsException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link CapacitySchedulerConfig} from Hadoop properties, whichever form they were
 * written in: the scheduler-wide settings, the queue tree, the mappings; then the checks that span
 * queues, and a warning for every key that has no effect.
 */
final class CapacityConfigReader {
  private final HadoopProperties p;
  private final List<ConfigWarning> warnings = new ArrayList<>();

  private CapacityConfigReader(HadoopProperties p) {
    this.p = p;
  }

  static CapacitySchedulerConfig read(HadoopProperties p) {
    return new CapacityConfigReader(p).read();
  }

  private CapacitySchedulerConfig read() {
    warnings.addAll(p.warnings());
    modes();
    SchedulerWideSettings wide = schedulerWide();
    PreemptionSettings preemption = preemption();
    QueueReader.Defaults defaults =
        new QueueReader.Defaults(
            value(MINIMUM_USER_LIMIT_PERCENT, 100f, QueueReader::userLimitPercent),
            value(USER_LIMIT_FACTOR, 1f, QueueReader::userLimitFactor),
            value(GLOBAL_QUEUE_MAX_APPLICATION, -1, Numbers::integer),
            wide,
            preemption.enabled());
    CapacityQueue root = new QueueReader(p, defaults, warnings).root();
    QueueIndex index = new QueueIndex(root);
    TreeChecks.check(root, wide, p::where);
    List<QueueMapping> mappings = new ArrayList<>(MappingText.parse(p, QUEUE_MAPPINGS, false));
    mappings.addAll(MappingText.parse(p, APPLICATION_MAPPINGS, true));
    MappingText.check(mappings, index, p::where);
    boolean override = value(QUEUE_MAPPINGS_OVERRIDE, false, Numbers::bool);
    warnings.addAll(UnusedKeys.warnings(p, index));
    return new CapacitySchedulerConfig(root, wide, preemption, mappings, override, warnings);
  }

  /** Hadoop modes that change what every other key means, which Bobbin does not have yet. */
  private void modes() {
    if (!value(LEGACY_QUEUE_MODE, true, Numbers::bool)) {
      throw new SettingsException(
          p.where(LEGACY_QUEUE_MODE), "the non-legacy queue mode is not supported yet; remove the key or set it to true");
    }
    String format = p.get(MAPPING_RULE_FORMAT);
    if (format != null && !format.trim().equals("legacy")) {
      String problem = format.trim().equals("json")
          ? "JSON mapping rules are not supported yet; use yarn.scheduler.capacity.queue-mappings"
          : "must be legacy or json, was '" + format + "'";
      throw new SettingsException(p.where(MAPPING_RULE_FORMAT), problem);
    }
  }

  private SchedulerWideSettings schedulerWide() {
    SchedulerWideSettings h = SchedulerWideSettings.HADOOP_DEFAULTS;
    int maxApps = value(MAXIMUM_APPLICATIONS, h.maximumApplications(), Numbers::integer);
    if (maxApps < 0) throw new SettingsException(p.where(MAXIMUM_APPLICATIONS), "must not be negative, was " + maxApps);
    int nodeDelay = value(NODE_LOCALITY_DELAY, h.nodeLocalityDelay(), Numbers::integer);
    if (nodeDelay < 0) throw new SettingsException(p.where(NODE_LOCALITY_DELAY), "must not be negative, was " + nodeDelay);
    int rackDelay = value(RACK_LOCALITY_ADDITIONAL_DELAY, h.rackLocalityAdditionalDelay(), Numbers::integer);
    if (rackDelay < -1) {
      throw new SettingsException(
          p.where(RACK_LOCALITY_ADDITIONAL_DELAY), "must be -1 (Hadoop's estimate) or at least 0, was " + rackDelay);
    }
    int maxPriority = value(MAX_APPLICATION_PRIORITY, h.maxApplicationPriority(), Numbers::integer);
    if (maxPriority < 0) throw new SettingsException(p.where(MAX_APPLICATION_PRIORITY), "must not be negative, was " + maxPriority);
    long minMb = value(MINIMUM_ALLOCATION_MB, h.minimumAllocationMb(), Numbers::longValue);
    int minVcores = value(MINIMUM_ALLOCATION_VCORES, h.minimumAllocationVcores(), Numbers::integer);
    long maxMb = value(MAXIMUM_ALLOCATION_MB, h.maximumAllocationMb(), Numbers::longValue);
    int maxVcores = value(MAXIMUM_ALLOCATION_VCORES, h.maximumAllocationVcores(), Numbers::integer);
    // As Hadoop's CapacityScheduler checks them when it starts.
    if (minMb <= 0 || minMb > maxMb) {
      throw new SettingsException(
          p.where(p.has(MINIMUM_ALLOCATION_MB) ? MINIMUM_ALLOCATION_MB : MAXIMUM_ALLOCATION_MB),
          "the minimum (" + minMb + ") and maximum (" + maxMb + ") allocation memory must be above 0,"
              + " the maximum no smaller than the minimum");
    }
    if (minVcores <= 0 || minVcores > maxVcores) {
      throw new SettingsException(
          p.where(p.has(MINIMUM_ALLOCATION_VCORES) ? MINIMUM_ALLOCATION_VCORES : MAXIMUM_ALLOCATION_VCORES),
          "the minimum (" + minVcores + ") and maximum (" + maxVcores + ") allocation vcores must be above 0,"
              + " the maximum no smaller than the minimum");
    }
    return new SchedulerWideSettings(
        maxApps,
        value(MAXIMUM_AM_RESOURCE_PERCENT, h.maximumAmResourcePercent(), Numbers::fraction),
        value(RESOURCE_CALCULATOR, h.resourceCalculator(), ResourceCalculator::parse),
        nodeDelay, rackDelay,
        value(RACK_LOCALITY_FULL_RESET, h.rackLocalityFullReset(), Numbers::bool),
        value(RESERVATIONS_CONTINUE_LOOKING, h.reservationsContinueLooking(), Numbers::bool),
        maxPriority, minMb, minVcores, maxMb, maxVcores);
  }

  private PreemptionSettings preemption() {
    PreemptionSettings h = PreemptionSettings.HADOOP_DEFAULTS;
    boolean monitor = value(MONITOR_ENABLE, false, Numbers::bool);
    String policies = p.get(MONITOR_POLICIES);
    boolean proportional = true;
    if (policies != null) {
      proportional = false;
      for (String policy : policies.split(",")) {
        String name = policy.trim();
        if (name.equals(PROPORTIONAL_POLICY)) {
          proportional = true;
        } else if (!name.isEmpty()) {
          warnings.add(new ConfigWarning(
              p.where(MONITOR_POLICIES),
              "the scheduling monitor " + name + " is not supported yet; only the proportional capacity preemption policy runs"));
        }
      }
    }
    return new PreemptionSettings(
        monitor && proportional,
        value(OBSERVE_ONLY, h.observeOnly(), Numbers::bool),
        value(MONITORING_INTERVAL, h.monitoringInterval(), this::positiveMillis),
        value(MAX_WAIT_BEFORE_KILL, h.maxWaitBeforeKill(), this::millis),
        value(TOTAL_PREEMPTION_PER_ROUND, h.totalPreemptionPerRound(), this::positiveFraction),
        value(MAX_IGNORED_OVER_CAPACITY, h.maxIgnoredOverCapacity(), this::notNegative),
        value(NATURAL_TERMINATION_FACTOR, h.naturalTerminationFactor(), this::positiveFractionDouble));
  }

  private Duration millis(String key, String text) {
    long ms = Numbers.longValue(key, text);
    if (ms < 0) throw new SettingsException(key, "must not be negative (milliseconds), was " + ms);
    return Duration.ofMillis(ms);
  }

  private Duration positiveMillis(String key, String text) {
    Duration d = millis(key, text);
    if (d.isZero()) throw new SettingsException(key, "must be above 0 (milliseconds)");
    return d;
  }

  private float positiveFraction(String key, String text) {
    float f = Numbers.floatValue(key, text);
    if (!(f > 0 && f <= 1)) throw new SettingsException(key, "must be above 0 and at most 1 (a share of the cluster), was " + text.trim());
    return f;
  }

  private double positiveFractionDouble(String key, String text) {
    double d = Numbers.doubleValue(key, text);
    if (!(d > 0 && d <= 1)) throw new SettingsException(key, "must be above 0 and at most 1, was " + text.trim());
    return d;
  }

  private double notNegative(String key, String text) {
    double d = Numbers.doubleValue(key, text);
    if (d < 0) throw new SettingsException(key, "must not be negative, was " + text.trim());
    return d;
  }

  /** Reads one value, naming what the user wrote in errors. */
  interface Parser<T> {
    T parse(String key, String text);
  }

  private <T> T value(String key, T fallback, Parser<T> parser) {
    String text = p.get(key);
    return text == null ? fallback : parser.parse(p.where(key), text);
  }
}
