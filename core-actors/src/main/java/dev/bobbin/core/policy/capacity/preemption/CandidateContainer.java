package dev.bobbin.core.policy.capacity.preemption;

import dev.bobbin.core.policy.ContainerSnapshot;
import java.util.Objects;

/**
 * A live container with the request it was allocated for, whose priority and allocation request id
 * order the containers of one application for preemption.
 *
 * @param requestPriority the priority of the request it was allocated for (a larger number is a
 *     less important request, as in YARN)
 */
public record CandidateContainer(ContainerSnapshot container, int requestPriority, long allocationRequestId) {
  public CandidateContainer {
    Objects.requireNonNull(container, "container");
  }

  public String containerId() {
    return container.containerId();
  }

  public String appId() {
    return container.appId();
  }
}
