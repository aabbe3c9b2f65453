package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.RequestKey;
import dev.bobbin.protocol.Resource;

/**
 * A node kept for one application's container that its free space cannot hold yet, Hadoop's
 * reserved container: until the reservation goes, the node is offered to that application's request
 * alone, and the container is placed there as soon as the node has the room.
 *
 * @param rack the node's rack, for Hadoop's limit on reservations per rack
 * @param queue the application's leaf queue, full path
 */
public record NodeReservation(String nodeId, String rack, String appId, String attemptId, String queue,
    RequestKey request) {
  public Resource size() {
    return request.capability();
  }
}
