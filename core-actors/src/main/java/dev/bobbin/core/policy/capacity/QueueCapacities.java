package dev.bobbin.core.policy.capacity;

import dev.bobbin.protocol.Resource;

/**
 * What one queue is guaranteed and may grow to against the current cluster, as Hadoop's capacity
 * scheduler computes it (floats where Hadoop keeps floats).
 *
 * @param capacity fraction of the parent (0.5 is 50 %); for absolute resources, derived from them
 * @param maximumCapacity fraction of the parent's maximum
 * @param absoluteCapacity fraction of the cluster: {@code capacity x parent's absoluteCapacity}
 * @param absoluteMaximumCapacity fraction of the cluster: {@code maximumCapacity x parent's}
 * @param guaranteed the effective minimum resource: what the queue is guaranteed
 * @param maximum the effective maximum resource: what it may grow to
 * @param configuredMinimum the absolute capacity configured, {@link Resource#NONE} for percentages
 * @param configuredMaximum the absolute maximum configured or inherited, {@link Resource#NONE} if none
 * @param maximumAllocation the largest container the queue grants
 * @param state STOPPED when the queue or one of its ancestors is
 * @param reason how the numbers came about
 */
public record QueueCapacities(
    String path,
    float capacity,
    float maximumCapacity,
    float absoluteCapacity,
    float absoluteMaximumCapacity,
    Resource guaranteed,
    Resource maximum,
    Resource configuredMinimum,
    Resource configuredMaximum,
    Resource maximumAllocation,
    CapacityQueueState state,
    String reason) {}
