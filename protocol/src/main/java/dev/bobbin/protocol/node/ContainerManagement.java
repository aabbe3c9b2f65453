package dev.bobbin.protocol.node;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import java.util.List;
import java.util.Map;

/**
 * AM (or RM) → NM container management, modelled on YARN's ContainerManagementProtocol. Every
 * request carries the RM-issued container token of each container it names.
 */
public final class ContainerManagement {
  private ContainerManagement() {}

  public record StartContainerRequest(String containerToken, ContainerLaunchContext launchContext) {}

  /** {@code POST /ws/v1/node/container-manager/start}. */
  public record StartContainersRequest(List<StartContainerRequest> requests) {
    public StartContainersRequest {
      requests = requests == null ? List.of() : List.copyOf(requests);
    }
  }

  public record FailedRequest(String containerId, String exception, String message) {}

  /**
   * @param servicesMetaData what each auxiliary service of the node tells applications (name to
   *     base64 bytes), as YARN's {@code allServicesMetaData}
   */
  public record StartContainersResponse(
      List<String> succeeded, List<FailedRequest> failed, Map<String, String> servicesMetaData) {
    public StartContainersResponse {
      servicesMetaData = servicesMetaData == null ? Map.of() : Map.copyOf(servicesMetaData);
    }

    public StartContainersResponse(List<String> succeeded, List<FailedRequest> failed) {
      this(succeeded, failed, Map.of());
    }
  }

  /** {@code POST /ws/v1/node/container-manager/stop}. */
  public record StopContainersRequest(List<String> containerTokens) {
    public StopContainersRequest {
      containerTokens = containerTokens == null ? List.of() : List.copyOf(containerTokens);
    }
  }

  public record StopContainersResponse(List<String> succeeded, List<FailedRequest> failed) {}

  /** {@code POST /ws/v1/node/container-manager/status}. */
  public record GetContainerStatusesRequest(List<String> containerTokens) {
    public GetContainerStatusesRequest {
      containerTokens = containerTokens == null ? List.of() : List.copyOf(containerTokens);
    }
  }

  public record GetContainerStatusesResponse(List<ContainerStatus> statuses, List<FailedRequest> failed) {}
}
