package dev.bobbin.config.fair;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One queue as configured, before defaults and inheritance (see {@link EffectiveQueue} for those).
 * A null component was not configured: resource limits, maxRunningApps, maxAMShare and
 * schedulingPolicy then fall back to the file's defaults, and the preemption timeouts and threshold
 * to the parent's values.
 *
 * @param path the full dotted path: "root", "root.a", "root.a.b"
 * @param maxContainerAllocation the largest single container; null inherits the parent's, and at
 *     the root the scheduler's maximum allocation
 * @param maxAMShare fraction of the queue's fair share AMs may use, -1 for no limit; leaf queues only
 * @param allowPreemptionFrom false keeps the scheduler from preempting this queue and all below it
 * @param aclSubmitApps Hadoop's ACL text, "users groups"; "*" is everyone, " " no one
 */
public record FairQueueConfig(
    String path,
    QueueType type,
    double weight,
    ResourceSpec minResources,
    ResourceSpec maxResources,
    ResourceSpec maxChildResources,
    ResourceSpec maxContainerAllocation,
    Integer maxRunningApps,
    Double maxAMShare,
    QueuePolicy schedulingPolicy,
    Duration minSharePreemptionTimeout,
    Duration fairSharePreemptionTimeout,
    Double fairSharePreemptionThreshold,
    boolean allowPreemptionFrom,
    String aclSubmitApps,
    String aclAdministerApps,
    List<FairQueueConfig> children) {

  public static final double DEFAULT_WEIGHT = 1.0;
  public static final String ACL_EVERYONE = "*";
  public static final String ACL_NO_ONE = " ";

  public FairQueueConfig {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
    children = List.copyOf(children);
    if (type == QueueType.LEAF && !children.isEmpty()) {
      throw new IllegalArgumentException("leaf queue " + path + " has children");
    }
  }

  /** The last part of the path: "b" for "root.a.b". */
  public String name() {
    return QueueNames.lastSegment(path);
  }

  public boolean isLeaf() {
    return type == QueueType.LEAF;
  }

  public boolean isRoot() {
    return path.equals(QueueNames.ROOT);
  }
}
