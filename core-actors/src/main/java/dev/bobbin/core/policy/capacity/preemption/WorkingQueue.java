package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * One queue while a round is computed (Hadoop's {@code TempQueuePerPartition}). Mutable, and never
 * seen outside the package: {@link IdealAssignment} turns it into {@link QueueAssignment}.
 */
final class WorkingQueue {
  final String path;
  final boolean leaf;
  final boolean preemptionDisabled;
  /** The queue's priority when its parent orders children by priority, else 0. */
  final int relativePriority;
  final Resource guaranteed;
  final Resource maximum;
  final float absoluteCapacity;
  final Resource used;
  final Resource reserved;
  /** A parent's pending and pending beyond reservations are its children's added up. */
  Resource pending;
  Resource pendingBeyondReserved;
  final List<WorkingQueue> children = new ArrayList<>();

  Resource idealAssigned = Resource.NONE;
  Resource initialAssignment = Resource.NONE;
  Resource surplusAccepted = Resource.NONE;
  Resource toBePreempted = Resource.NONE;
  Resource toObtain = Resource.NONE;
  Resource untouchableExtra = Resource.NONE;
  Resource preemptableExtra = Resource.NONE;
  /** Per resource type (memory, vcores): the queue's part of what is offered among the queues still asking. */
  final double[] normalizedGuarantee = new double[2];
  float scalingFactor = 1f;
  Resource levelPreemptionNeeded = Resource.NONE;
  Resource levelTotal = Resource.NONE;

  WorkingQueue(String path, boolean leaf, boolean preemptionDisabled, int relativePriority, Resource guaranteed,
      Resource maximum, float absoluteCapacity, LeafLoad load) {
    this.path = path;
    this.leaf = leaf;
    this.preemptionDisabled = preemptionDisabled;
    this.relativePriority = relativePriority;
    this.guaranteed = guaranteed;
    this.maximum = maximum;
    this.absoluteCapacity = absoluteCapacity;
    this.used = load.used();
    this.reserved = load.reserved();
    this.pending = load.pending();
    this.pendingBeyondReserved = load.pendingBeyondReserved();
  }

  void addChild(WorkingQueue child) {
    children.add(child);
    pending = pending.plus(child.pending);
    pendingBeyondReserved = pendingBeyondReserved.plus(child.pendingBeyondReserved);
  }

  /**
   * What of the queue's usage above its guarantee preemption may take (Hadoop's preemptable extra)
   * and what it may not (untouchable extra): a leaf with preemption disabled keeps all of its
   * excess; a parent keeps what of its excess its children cannot give. Children first.
   */
  void updateExtras(ResourceMath rc, Resource cluster) {
    for (WorkingQueue c : children) c.updateExtras(rc, cluster);
    Resource extra = used.minus(guaranteed);
    if (rc.lessThan(cluster, extra, Resource.NONE)) extra = Resource.NONE;
    if (leaf) {
      untouchableExtra = preemptionDisabled ? extra : Resource.NONE;
      preemptableExtra = preemptionDisabled ? Resource.NONE : extra;
      return;
    }
    Resource childrenPreemptable = Resource.NONE;
    for (WorkingQueue c : children) childrenPreemptable = childrenPreemptable.plus(c.preemptableExtra);
    untouchableExtra = rc.compare(cluster, childrenPreemptable, extra) >= 0 ? Resource.NONE
        : extra.minus(childrenPreemptable);
    preemptableExtra = rc.min(cluster, childrenPreemptable, extra);
  }

  /**
   * Takes what it can of {@code offered} into its ideal assignment and returns the rest: at most up
   * to its maximum, to its usage plus the asks beyond reservations, and, for a leaf, to the larger
   * of its usage and its guarantee (so queues all at or over their guarantees take nothing from
   * each other). {@code total} is what the queue's level shares, against which resources compare.
   */
  Resource offer(Resource offered, ResourceMath rc, Resource total) {
    Resource belowMaximum = ResourceMath.componentwiseMax(maximum.minus(idealAssigned), Resource.NONE);
    Resource wanted = used.plus(pendingBeyondReserved).minus(idealAssigned);
    Resource accepted = ResourceMath.componentwiseMin(belowMaximum, rc.min(total, offered, wanted));
    if (leaf) {
      Resource room = rc.max(total, rc.max(total, used, guaranteed).minus(idealAssigned), Resource.NONE);
      accepted = rc.min(total, accepted, room);
    }
    accepted = ResourceMath.componentwiseMin(ResourceMath.componentwiseMax(accepted, Resource.NONE), offered);
    idealAssigned = idealAssigned.plus(accepted);
    surplusAccepted = surplusAccepted.plus(accepted);
    return offered.minus(accepted);
  }

  /**
   * What the queue should give back, before the dead zone and natural termination: its usage above
   * the larger of its ideal assignment and the smaller of its guarantee and its demand (the
   * guarantee is kept whatever the distribution says), times the level's {@code scaling} factor.
   */
  void assignPreemption(float scaling, ResourceMath rc, Resource total) {
    Resource keep = rc.max(total, rc.min(total, used.plus(pending), guaranteed), idealAssigned);
    toBePreempted = rc.greaterThan(total, used, keep)
        ? ResourceMath.multiplyAndRoundDown(used.minus(keep), scaling) : Resource.NONE;
  }
}
