package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.RequestKey;
import dev.bobbin.protocol.Resource;

/**
 * A node kept for one application's container that the node's free space cannot hold yet, Hadoop's
 * reserved container under the CapacityScheduler: the node is offered to that request before
 * anything else, and the container counts in its queue's and user's use from the moment the node
 * is reserved.
 *
 * @param queue the application's leaf queue, full path
 */
public record CapacityReservation(String nodeId, String appId, String attemptId, String queue, String user,
    RequestKey request) {
  public Resource size() {
    return request.capability();
  }
}
