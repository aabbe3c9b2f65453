package dev.bobbin.protocol.am;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * New containers and completed statuses are each delivered exactly once. {@code amCommand} is
 * null unless the RM wants the AM to resync or shut down; {@code preempt} is null unless the RM
 * is about to take containers back. {@code amRmToken} is null unless the RM hands the AM a new AM
 * token (after its key rolled, or a new scheduler took over), which the AM sends from then on.
 */
public record AllocateResponse(
    int responseId,
    List<Container> allocatedContainers,
    List<ContainerStatus> completedContainerStatuses,
    Resource limit,
    int numClusterNodes,
    AmCommand amCommand,
    PreemptionMessage preempt,
    String amRmToken) {
  public AllocateResponse {
    allocatedContainers = allocatedContainers == null ? List.of() : List.copyOf(allocatedContainers);
    completedContainerStatuses =
        completedContainerStatuses == null ? List.of() : List.copyOf(completedContainerStatuses);
  }

  public AllocateResponse(
      int responseId, List<Container> allocatedContainers, List<ContainerStatus> completedContainerStatuses,
      Resource limit, int numClusterNodes, AmCommand amCommand, PreemptionMessage preempt) {
    this(responseId, allocatedContainers, completedContainerStatuses, limit, numClusterNodes, amCommand, preempt, null);
  }

  public AllocateResponse(
      int responseId, List<Container> allocatedContainers, List<ContainerStatus> completedContainerStatuses,
      Resource limit, int numClusterNodes, AmCommand amCommand) {
    this(responseId, allocatedContainers, completedContainerStatuses, limit, numClusterNodes, amCommand, null);
  }

  /** The same response, handing the AM this AM token. */
  public AllocateResponse withAmRmToken(String token) {
    return new AllocateResponse(responseId, allocatedContainers, completedContainerStatuses, limit, numClusterNodes,
        amCommand, preempt, token);
  }
}
