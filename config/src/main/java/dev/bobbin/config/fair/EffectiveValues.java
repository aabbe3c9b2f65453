package dev.bobbin.config.fair;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hadoop's resolution of queue settings: limits and policy fall back to the file's defaults;
 * preemption timeouts and threshold come from the parent (the root's from the defaults); a queue
 * is preemptable only if its parent is; a queue created at run time is capped by its parent's
 * maxChildResources.
 */
final class EffectiveValues {
  private EffectiveValues() {}

  /** Every configured queue, parents before children. */
  static Map<String, EffectiveQueue> of(FairQueueConfig root, FairDefaults defaults) {
    Map<String, EffectiveQueue> out = new LinkedHashMap<>();
    walk(root, null, defaults, out);
    return out;
  }

  private static void walk(
      FairQueueConfig q, EffectiveQueue parent, FairDefaults d, Map<String, EffectiveQueue> out) {
    EffectiveQueue e = resolve(q, parent, d, false);
    out.put(q.path(), e);
    q.children().forEach(c -> walk(c, e, d, out));
  }

  /** A queue that placement creates under {@code parent}: nothing configured of its own. */
  static EffectiveQueue created(String path, QueueType type, EffectiveQueue parent, FairDefaults d) {
    FairQueueConfig blank =
        new FairQueueConfig(
            path, type, FairQueueConfig.DEFAULT_WEIGHT, null, parent.maxChildResources(), null, null, null, null,
            null, null, null, null, true, null, null, List.of());
    return resolve(blank, parent, d, true);
  }

  private static EffectiveQueue resolve(FairQueueConfig q, EffectiveQueue parent, FairDefaults d, boolean dynamic) {
    boolean root = parent == null;
    return new EffectiveQueue(
        q.path(),
        q.type(),
        q.weight(),
        or(q.minResources(), ResourceSpec.NONE),
        or(q.maxResources(), d.queueMaxResourcesDefault()),
        q.maxChildResources(),
        or(q.maxContainerAllocation(), root ? ResourceSpec.UNLIMITED : parent.maxContainerAllocation()),
        or(q.maxRunningApps(), d.queueMaxAppsDefault()),
        or(q.maxAMShare(), d.queueMaxAMShareDefault()),
        or(q.schedulingPolicy(), d.defaultQueueSchedulingPolicy()),
        timeout(q.minSharePreemptionTimeout(), parent == null ? null : parent.minSharePreemptionTimeout(),
            d.defaultMinSharePreemptionTimeout()),
        timeout(q.fairSharePreemptionTimeout(), parent == null ? null : parent.fairSharePreemptionTimeout(),
            d.defaultFairSharePreemptionTimeout()),
        or(q.fairSharePreemptionThreshold(),
            root ? d.defaultFairSharePreemptionThreshold() : parent.fairSharePreemptionThreshold()),
        (root || parent.preemptable()) && q.allowPreemptionFrom(),
        or(q.aclSubmitApps(), root ? FairQueueConfig.ACL_EVERYONE : FairQueueConfig.ACL_NO_ONE),
        or(q.aclAdministerApps(), root ? FairQueueConfig.ACL_EVERYONE : FairQueueConfig.ACL_NO_ONE),
        dynamic);
  }

  private static Optional<Duration> timeout(Duration own, Optional<Duration> fromParent, Duration rootDefault) {
    if (own != null) return Optional.of(own);
    return fromParent != null ? fromParent : Optional.ofNullable(rootDefault);
  }

  private static <T> T or(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
