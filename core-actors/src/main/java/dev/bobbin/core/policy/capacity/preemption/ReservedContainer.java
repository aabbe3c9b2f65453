package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.protocol.Resource;
import java.util.Objects;

/**
 * Space on a node held for one of an application's requests until it fits there. Preemption takes
 * an application's reservations back before its containers, as Hadoop does.
 *
 * @param reservationId the id the scheduler knows the reservation by (Hadoop gives it a container id)
 */
public record ReservedContainer(String reservationId, String appId, String nodeId, Resource resource) {
  public ReservedContainer {
    Objects.requireNonNull(reservationId, "reservationId");
    Objects.requireNonNull(appId, "appId");
    Objects.requireNonNull(resource, "resource");
  }
}
