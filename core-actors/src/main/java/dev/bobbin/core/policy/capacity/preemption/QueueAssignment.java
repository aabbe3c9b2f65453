package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.protocol.Resource;

/**
 * One queue's numbers in a preemption round.
 *
 * @param preemptionDisabled {@code disable_preemption}, inherited from the parent
 * @param guaranteed what the queue is guaranteed against the current cluster
 * @param maximum what it may grow to
 * @param used what it holds
 * @param pending what its applications still ask for, within their users' limits (a parent's is its
 *     children's)
 * @param reserved what its applications' node reservations hold
 * @param idealAssignment what it should hold: its share of its parent's ideal assignment, within
 *     its maximum and its demand
 * @param untouchableExtra the part of its usage above its guarantee that preemption may not take
 *     (queues with preemption disabled)
 * @param preemptableExtra the part it may take
 * @param toBePreempted its usage above what it keeps (the larger of its ideal assignment and the
 *     smaller of its guarantee and its demand), scaled down when its level needs more than a round allows
 * @param scalingFactor that scale: 1, or the round's allowance over what its level needs
 * @param toObtain what this round takes from it: 0 for a parent, for a leaf with preemption disabled
 *     and within the dead zone; else {@code toBePreempted} times the natural termination factor
 * @param reason the same numbers in words
 */
public record QueueAssignment(
    String path,
    boolean leaf,
    boolean preemptionDisabled,
    Resource guaranteed,
    Resource maximum,
    Resource used,
    Resource pending,
    Resource reserved,
    Resource idealAssignment,
    Resource untouchableExtra,
    Resource preemptableExtra,
    Resource toBePreempted,
    float scalingFactor,
    Resource toObtain,
    String reason) {}
