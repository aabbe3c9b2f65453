package dev.bobbin.config.fair;

import java.time.Duration;
import java.util.Objects;

/**
 * The allocation file's top-level defaults. The preemption timeouts and threshold here are the
 * root queue's unless the root sets its own; a null timeout means never (Hadoop's Long.MAX_VALUE).
 * {@link #UNLIMITED_APPS} means no limit on running applications.
 */
public record FairDefaults(
    int userMaxAppsDefault,
    int queueMaxAppsDefault,
    ResourceSpec queueMaxResourcesDefault,
    double queueMaxAMShareDefault,
    QueuePolicy defaultQueueSchedulingPolicy,
    Duration defaultFairSharePreemptionTimeout,
    Duration defaultMinSharePreemptionTimeout,
    double defaultFairSharePreemptionThreshold) {

  public static final int UNLIMITED_APPS = Integer.MAX_VALUE;

  /** What Hadoop uses when the file sets nothing. */
  public static final FairDefaults HADOOP =
      new FairDefaults(UNLIMITED_APPS, UNLIMITED_APPS, ResourceSpec.UNLIMITED, 0.5, QueuePolicy.FAIR, null, null, 0.5);

  public FairDefaults {
    Objects.requireNonNull(queueMaxResourcesDefault, "queueMaxResourcesDefault");
    Objects.requireNonNull(defaultQueueSchedulingPolicy, "defaultQueueSchedulingPolicy");
  }
}
