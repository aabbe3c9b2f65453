package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.protocol.Resource;

/**
 * A container (or node reservation) chosen to give back what its leaf owes this round.
 *
 * @param id the container id, or the reservation's id for {@link Kind#RESERVATION}
 * @param toObtainBefore what the leaf still had to give back before this one was chosen
 * @param allowanceBefore what was left of the round's allowance before it
 * @param reason why this one: the leaf's guarantee, usage, ideal assignment and the round's amounts,
 *     and its place in the order of applications and containers
 */
public record Victim(
    String id, String appId, String queuePath, String nodeId, Resource resource, Kind kind,
    Resource toObtainBefore, Resource allowanceBefore, String reason) {

  public enum Kind {
    /** A node reservation: cancelled at once, nothing to warn about. */
    RESERVATION,
    /** A container other than an AM's. */
    CONTAINER,
    /** An application's AM container, taken only once the leaf's other containers do not suffice. */
    AM_CONTAINER
  }
}
