package dev.bobbin.config.capacity;

/**
 * The per-queue settings Bobbin reads: the part after {@code yarn.scheduler.capacity.<queue-path>.}
 * and the name the HOCON section gives it.
 */
enum QueueKey {
  CAPACITY("capacity", Applies.ALL),
  MAXIMUM_CAPACITY("maximum-capacity", Applies.ALL),
  STATE("state", Applies.ALL),
  MAXIMUM_ALLOCATION_MB("maximum-allocation-mb", Applies.ALL),
  MAXIMUM_ALLOCATION_VCORES("maximum-allocation-vcores", Applies.ALL),
  MAXIMUM_ALLOCATION("maximum-allocation", Applies.ALL),
  ORDERING_POLICY("ordering-policy", Applies.ALL),
  SIZE_BASED_WEIGHT("ordering-policy.fair.enable-size-based-weight", "size-based-weight", Applies.LEAF),
  PRIORITY("priority", Applies.ALL),
  MINIMUM_USER_LIMIT_PERCENT("minimum-user-limit-percent", Applies.LEAF),
  USER_LIMIT_FACTOR("user-limit-factor", Applies.LEAF),
  MAXIMUM_APPLICATIONS("maximum-applications", Applies.LEAF),
  MAXIMUM_AM_RESOURCE_PERCENT("maximum-am-resource-percent", Applies.LEAF),
  ACL_SUBMIT_APPLICATIONS("acl_submit_applications", "acl-submit-applications", Applies.ALL),
  ACL_ADMINISTER_QUEUE("acl_administer_queue", "acl-administer-queue", Applies.ALL),
  DISABLE_PREEMPTION("disable_preemption", "disable-preemption", Applies.ALL),
  DEFAULT_APPLICATION_PRIORITY("default-application-priority", Applies.LEAF),
  ALLOW_ZERO_CAPACITY_SUM("allow-zero-capacity-sum", Applies.PARENT);

  enum Applies {
    ALL,
    LEAF,
    PARENT
  }

  /** The child queue list; a queue without one is a leaf. */
  static final String QUEUES = "queues";
  /** user-settings.&lt;user&gt;.weight */
  static final String USER_SETTINGS = "user-settings";
  static final String USER_WEIGHT = "weight";

  final String hadoop;
  final String hocon;
  final Applies applies;

  QueueKey(String hadoop, Applies applies) {
    this(hadoop, hadoop, applies);
  }

  QueueKey(String hadoop, String hocon, Applies applies) {
    this.hadoop = hadoop;
    this.hocon = hocon;
    this.applies = applies;
  }

  static QueueKey byHocon(String name) {
    for (QueueKey k : values()) {
      if (k.hocon.equals(name)) return k;
    }
    return null;
  }

  /** {@code yarn.scheduler.capacity.root.a.capacity} for {@code root.a}. */
  static String of(String queuePath, String suffix) {
    return CapacityKeys.PREFIX + queuePath + "." + suffix;
  }

  String of(String queuePath) {
    return of(queuePath, hadoop);
  }
}
