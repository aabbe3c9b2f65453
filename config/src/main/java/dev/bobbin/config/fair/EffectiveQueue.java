package dev.bobbin.config.fair;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A queue's settings with the file's defaults and its ancestors' values applied, as Hadoop's
 * FairScheduler resolves them.
 *
 * @param maxAMShare only leaf queues use it; a parent carries the default
 * @param maxChildResources the cap for queues created under this one at run time; null if none
 * @param maxContainerAllocation {@link ResourceSpec#UNLIMITED} means the scheduler's maximum
 *     allocation applies
 * @param minSharePreemptionTimeout empty means the queue never counts as starved for its min share
 * @param fairSharePreemptionTimeout empty means the queue never counts as starved for its fair share
 * @param preemptable whether the scheduler may take containers from this queue
 * @param dynamic created at run time by placement rather than declared in the configuration
 */
public record EffectiveQueue(
    String path,
    QueueType type,
    double weight,
    ResourceSpec minResources,
    ResourceSpec maxResources,
    ResourceSpec maxChildResources,
    ResourceSpec maxContainerAllocation,
    int maxRunningApps,
    double maxAMShare,
    QueuePolicy schedulingPolicy,
    Optional<Duration> minSharePreemptionTimeout,
    Optional<Duration> fairSharePreemptionTimeout,
    double fairSharePreemptionThreshold,
    boolean preemptable,
    String aclSubmitApps,
    String aclAdministerApps,
    boolean dynamic) {

  public EffectiveQueue {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(minSharePreemptionTimeout, "minSharePreemptionTimeout");
    Objects.requireNonNull(fairSharePreemptionTimeout, "fairSharePreemptionTimeout");
  }

  public boolean isLeaf() {
    return type == QueueType.LEAF;
  }

  /** Whether the AM share check is switched off (maxAMShare of -1). */
  public boolean amShareUnlimited() {
    return maxAMShare == -1.0;
  }
}
