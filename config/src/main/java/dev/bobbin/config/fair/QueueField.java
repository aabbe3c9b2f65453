package dev.bobbin.config.fair;

/** A per-queue setting, with its allocation-file element name and its HOCON key. */
enum QueueField {
  WEIGHT("weight", "weight"),
  MIN_RESOURCES("minResources", "min-resources"),
  MAX_RESOURCES("maxResources", "max-resources"),
  MAX_CHILD_RESOURCES("maxChildResources", "max-child-resources"),
  MAX_CONTAINER_ALLOCATION("maxContainerAllocation", "max-container-allocation"),
  MAX_RUNNING_APPS("maxRunningApps", "max-running-apps"),
  MAX_AM_SHARE("maxAMShare", "max-am-share"),
  SCHEDULING_POLICY("schedulingPolicy", "scheduling-policy"),
  MIN_SHARE_PREEMPTION_TIMEOUT("minSharePreemptionTimeout", "min-share-preemption-timeout"),
  FAIR_SHARE_PREEMPTION_TIMEOUT("fairSharePreemptionTimeout", "fair-share-preemption-timeout"),
  FAIR_SHARE_PREEMPTION_THRESHOLD("fairSharePreemptionThreshold", "fair-share-preemption-threshold"),
  ALLOW_PREEMPTION_FROM("allowPreemptionFrom", "allow-preemption-from"),
  ACL_SUBMIT_APPS("aclSubmitApps", "acl-submit-apps"),
  ACL_ADMINISTER_APPS("aclAdministerApps", "acl-administer-apps");

  final String xml;
  final String hocon;

  QueueField(String xml, String hocon) {
    this.xml = xml;
    this.hocon = hocon;
  }

  static QueueField byXml(String tag) {
    for (QueueField f : values()) if (f.xml.equals(tag)) return f;
    return null;
  }

  static QueueField byHocon(String key) {
    for (QueueField f : values()) if (f.hocon.equals(key)) return f;
    return null;
  }
}
