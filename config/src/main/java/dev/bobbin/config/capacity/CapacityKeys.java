package dev.bobbin.config.capacity;

import java.util.List;
import java.util.Map;

/**
 * Hadoop's scheduler-wide key names, and the Hadoop keys Bobbin knows but does not act on yet
 * (so that a warning can tell them from typos).
 */
final class CapacityKeys {
  static final String PREFIX = "yarn.scheduler.capacity.";
  static final String PREEMPTION_PREFIX = "yarn.resourcemanager.monitor.capacity.preemption.";

  // capacity-scheduler.xml
  static final String MAXIMUM_APPLICATIONS = PREFIX + "maximum-applications";
  static final String MAXIMUM_AM_RESOURCE_PERCENT = PREFIX + "maximum-am-resource-percent";
  static final String RESOURCE_CALCULATOR = PREFIX + "resource-calculator";
  static final String NODE_LOCALITY_DELAY = PREFIX + "node-locality-delay";
  static final String RACK_LOCALITY_ADDITIONAL_DELAY = PREFIX + "rack-locality-additional-delay";
  static final String RACK_LOCALITY_FULL_RESET = PREFIX + "rack-locality-full-reset";
  static final String RESERVATIONS_CONTINUE_LOOKING = PREFIX + "reservations-continue-looking";
  static final String MINIMUM_USER_LIMIT_PERCENT = PREFIX + "minimum-user-limit-percent";
  static final String USER_LIMIT_FACTOR = PREFIX + "user-limit-factor";
  static final String GLOBAL_QUEUE_MAX_APPLICATION = PREFIX + "global-queue-max-application";
  static final String QUEUE_MAPPINGS = PREFIX + "queue-mappings";
  static final String QUEUE_MAPPINGS_OVERRIDE = PREFIX + "queue-mappings-override.enable";
  static final String APPLICATION_MAPPINGS = "yarn.scheduler.queue-placement-rules.app-name";
  static final String MAPPING_RULE_FORMAT = PREFIX + "mapping-rule-format";
  static final String LEGACY_QUEUE_MODE = PREFIX + "legacy-queue-mode.enabled";

  // yarn-site.xml
  static final String MAX_APPLICATION_PRIORITY = "yarn.cluster.max-application-priority";
  static final String MINIMUM_ALLOCATION_MB = "yarn.scheduler.minimum-allocation-mb";
  static final String MINIMUM_ALLOCATION_VCORES = "yarn.scheduler.minimum-allocation-vcores";
  static final String MAXIMUM_ALLOCATION_MB = "yarn.scheduler.maximum-allocation-mb";
  static final String MAXIMUM_ALLOCATION_VCORES = "yarn.scheduler.maximum-allocation-vcores";
  static final String MONITOR_ENABLE = "yarn.resourcemanager.scheduler.monitor.enable";
  static final String MONITOR_POLICIES = "yarn.resourcemanager.scheduler.monitor.policies";
  static final String PROPORTIONAL_POLICY =
      "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy";
  static final String OBSERVE_ONLY = PREEMPTION_PREFIX + "observe_only";
  static final String MONITORING_INTERVAL = PREEMPTION_PREFIX + "monitoring_interval";
  static final String MAX_WAIT_BEFORE_KILL = PREEMPTION_PREFIX + "max_wait_before_kill";
  static final String TOTAL_PREEMPTION_PER_ROUND = PREEMPTION_PREFIX + "total_preemption_per_round";
  static final String MAX_IGNORED_OVER_CAPACITY = PREEMPTION_PREFIX + "max_ignored_over_capacity";
  static final String NATURAL_TERMINATION_FACTOR = PREEMPTION_PREFIX + "natural_termination_factor";

  /** Scheduler-wide Hadoop keys (after the prefix) for features Bobbin does not have yet. */
  private static final List<String> UNSUPPORTED_GLOBAL =
      List.of(
          "per-node-heartbeat.", "schedule-asynchronously.", "reservations-continue-look-all-nodes",
          "skip-allocate-on-nodes-with-reserved-containers", "user-metrics.enable",
          "application.fail-fast", "workflow-priority-mappings", "workflow-priority-mappings-override.enable",
          "lazy-preemption-enabled", "max-parallel-apps",
          "user.", "multi-node-", "queue.auto.refresh.", "auto-queue-creation-v2.", "ordering-policy.",
          "mapping-rule-json", "mapping-rule-json-file");

  /** Per-queue Hadoop keys (after the queue path) for features Bobbin does not have yet. */
  private static final List<String> UNSUPPORTED_QUEUE =
      List.of(
          "accessible-node-labels", "default-node-label-expression", "acl_application_max_priority",
          "maximum-application-lifetime", "default-application-lifetime", "max-parallel-apps",
          "intra-queue-preemption.", "multi-node-sorting.policy", "auto-create-child-queue.", "auto-queue-creation-v2.",
          "leaf-queue-template.");

  /** Per-queue keys of the reservation system, which comes later. */
  private static final List<String> RESERVATION_QUEUE =
      List.of(
          "reservable", "reservation-agent", "reservation-move-on-expiry", "show-reservations-as-queues",
          "reservation-policy", "reservation-window", "instantaneous-max-capacity", "average-capacity",
          "reservation-planner", "reservation-enforcement-window", "acl_administer_reservations",
          "acl_list_reservations", "acl_submit_reservations");

  /** Preemption monitor keys for behaviour Bobbin does not have yet (intra-queue preemption and others). */
  private static final List<String> UNSUPPORTED_PREEMPTION =
      List.of(
          "intra-queue-preemption.", "conservative-drf", "additional_res_balance_based_on_reserved_containers",
          "select_based_on_reserved_containers", "preemption-to-balance-queue-after-satisfied.");

  /**
   * Keys of features Bobbin does not have, with the value that asks for what Bobbin does anyway
   * (no lifetime limit, no reservations, no workflow priorities...). Hadoop's own
   * capacity-scheduler.xml sets several of them so; given that value they are honoured, not warned about.
   */
  private static final Map<String, String> DEFAULTS_BOBBIN_HONOURS =
      Map.ofEntries(
          Map.entry("acl_application_max_priority", "*"),
          Map.entry("maximum-application-lifetime", "-1"),
          Map.entry("default-application-lifetime", "-1"),
          Map.entry("reservable", "false"),
          Map.entry("application.fail-fast", "false"),
          Map.entry("workflow-priority-mappings", ""),
          Map.entry("workflow-priority-mappings-override.enable", "false"),
          Map.entry("user-metrics.enable", "false"),
          Map.entry("schedule-asynchronously.enable", "false"),
          Map.entry("lazy-preemption-enabled", "false"),
          Map.entry("multi-node-placement-enabled", "false"),
          Map.entry("intra-queue-preemption.enabled", "false"),
          Map.entry("reservation-system.enable", "false"));

  private CapacityKeys() {}

  /**
   * Whether an unsupported key holds the value that asks for Bobbin's behaviour.
   *
   * @param name the key after yarn.scheduler.capacity.[queue path.], after the preemption
   *     prefix, or after yarn.resourcemanager.
   */
  static boolean asksForWhatBobbinDoes(String name, String value) {
    String wanted = DEFAULTS_BOBBIN_HONOURS.get(name);
    return wanted != null && wanted.equalsIgnoreCase(value.trim());
  }

  static boolean isUnsupportedGlobal(String afterPrefix) {
    return startsWithAny(afterPrefix, UNSUPPORTED_GLOBAL);
  }

  static boolean isUnsupportedQueueSetting(String suffix) {
    return startsWithAny(suffix, UNSUPPORTED_QUEUE);
  }

  static boolean isReservationSetting(String suffix) {
    return RESERVATION_QUEUE.contains(suffix);
  }

  static boolean isUnsupportedPreemption(String afterPrefix) {
    return startsWithAny(afterPrefix, UNSUPPORTED_PREEMPTION);
  }

  /** Whether the suffix is a per-queue setting Hadoop knows, supported or not. */
  static boolean isQueueSetting(String suffix) {
    for (QueueKey k : QueueKey.values()) {
      if (k.hadoop.equals(suffix)) return true;
    }
    return suffix.equals(QueueKey.QUEUES) || suffix.startsWith(QueueKey.USER_SETTINGS + ".")
        || isUnsupportedQueueSetting(suffix) || isReservationSetting(suffix) || suffix.startsWith("ordering-policy.");
  }

  private static boolean startsWithAny(String s, List<String> prefixes) {
    for (String p : prefixes) {
      if (p.endsWith(".") || p.endsWith("-") ? s.startsWith(p) : s.equals(p) || s.startsWith(p + ".")) return true;
    }
    return false;
  }
}
