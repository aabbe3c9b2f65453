package dev.bobbin.config.capacity;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.security.AccessControlList;
import java.util.List;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One queue of the Capacity Scheduler with the defaults and the inheritance Hadoop resolves from
 * the configuration alone already applied. What depends on the cluster (absolute capacities of
 * queues given in resources, the proportional application limits) is left to the policy, as
 * Hadoop computes it at run time. Settings Hadoop reads for leaf queues only carry their defaults
 * on parent queues.
 *
 * @param path the full path, root.a.a1
 * @param capacity the guaranteed share of the parent, or absolute resources; root: 100 %
 * @param maximumCapacity how far the queue may grow; {@link QueueCapacity#UNLIMITED} when not set
 *     (or set to -1 or 100)
 * @param state its own state, or else its parent's (a queue under a STOPPED parent is STOPPED)
 * @param maximumAllocationMb the largest container, from maximum-allocation(-mb), else the
 *     parent's, else the cluster's (yarn.scheduler.maximum-allocation-mb)
 * @param maximumAllocationVcores likewise for vcores
 * @param orderingPolicy a leaf queue's application order
 * @param sizeBasedWeight ordering-policy.fair.enable-size-based-weight: the fair order weighs
 *     applications by their demand
 * @param queueOrderingPolicy a parent queue's order of its children, inherited from its parent
 * @param priority among its siblings, when the parent orders by priority-utilization
 * @param minimumUserLimitPercent the least share (percent) each active user gets when users compete;
 *     the queue's own, else yarn.scheduler.capacity.minimum-user-limit-percent, else 100
 * @param userLimitFactor how far beyond the queue's capacity one user may grow (1: up to the
 *     capacity); -1 removes the limit; the queue's own, else the scheduler-wide default, else 1
 * @param userWeights user-settings.&lt;user&gt;.weight, the parent's merged with the queue's own
 * @param maximumApplications the queue's own limit, else yarn.scheduler.capacity.global-queue-max-application
 *     when positive; empty: the scheduler-wide maximum-applications in proportion to the queue's
 *     absolute capacity, computed by the policy
 * @param maximumAmResourcePercent the share (0 to 1) of the queue's resources its AMs may hold
 * @param aclSubmitApplications the queue's own submit ACL (root: everyone unless set; others: no one
 *     unless set); access is granted by the queue's or any ancestor's list, see
 *     {@link CapacitySchedulerConfig#maySubmit}
 * @param aclAdministerQueue the queue's own administer ACL, with the same defaults
 * @param preemptionDisabled Hadoop's value: true when preemption is off for the cluster, else the
 *     queue's disable_preemption, else its parent's
 * @param defaultApplicationPriority the priority of an application that asks for none
 * @param allowZeroCapacitySum a parent queue whose children may all have capacity 0
 * @param children in the order the configuration lists them; empty for a leaf
 */
public record CapacityQueue(
    QueuePath path,
    QueueCapacity capacity,
    QueueCapacity maximumCapacity,
    QueueState state,
    long maximumAllocationMb,
    int maximumAllocationVcores,
    AppOrderingPolicy orderingPolicy,
    boolean sizeBasedWeight,
    QueueOrderingPolicy queueOrderingPolicy,
    int priority,
    float minimumUserLimitPercent,
    float userLimitFactor,
    Map<String, Float> userWeights,
    OptionalInt maximumApplications,
    float maximumAmResourcePercent,
    AccessControlList aclSubmitApplications,
    AccessControlList aclAdministerQueue,
    boolean preemptionDisabled,
    int defaultApplicationPriority,
    boolean allowZeroCapacitySum,
    List<CapacityQueue> children) {

  public CapacityQueue {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(capacity, "capacity");
    Objects.requireNonNull(maximumCapacity, "maximumCapacity");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(orderingPolicy, "orderingPolicy");
    Objects.requireNonNull(queueOrderingPolicy, "queueOrderingPolicy");
    Objects.requireNonNull(maximumApplications, "maximumApplications");
    Objects.requireNonNull(aclSubmitApplications, "aclSubmitApplications");
    Objects.requireNonNull(aclAdministerQueue, "aclAdministerQueue");
    userWeights = Collections.unmodifiableMap(new TreeMap<>(userWeights));
    children = List.copyOf(children);
  }

  public boolean isLeaf() {
    return children.isEmpty();
  }

  /** The weight of a user in this queue's user limits: its configured weight, else 1. */
  public float userWeight(String user) {
    return userWeights.getOrDefault(user, 1.0f);
  }

  /** Whether the user limit factor is switched off (-1). */
  public boolean userLimitFactorUnlimited() {
    return userLimitFactor == -1f;
  }
}
