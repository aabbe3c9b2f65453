package dev.bobbin.protocol.client;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.node.ContainerManagement.FailedRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Container management on a NodeManager (YARN's ContainerManagementProtocol), as an AM or the RM's
 * AM launcher calls it: start, stop and status, with the container tokens the RM issued. The
 * one-container calls fail with {@link RefusedException} when the NM refuses that container, and
 * with a {@link CallException} when the call itself fails.
 */
public final class ContainerManagerClient {
  private final BobbinHttp http;

  public ContainerManagerClient(BobbinHttp http) {
    this.http = http;
  }

  /** Default timeouts, no credentials. */
  public static ContainerManagerClient create() {
    return new ContainerManagerClient(BobbinHttp.withDefaults());
  }

  /** @param nodeHttpAddress {@code host:port} as the RM reports it, or a URL */
  public CompletableFuture<StartContainersResponse> startContainers(
      String nodeHttpAddress, StartContainersRequest request) {
    return http.call(
        Call.post(nodeHttpAddress, WirePaths.NM_START_CONTAINERS, request), StartContainersResponse.class);
  }

  public CompletableFuture<StopContainersResponse> stopContainers(
      String nodeHttpAddress, StopContainersRequest request) {
    return http.call(Call.post(nodeHttpAddress, WirePaths.NM_STOP_CONTAINERS, request), StopContainersResponse.class);
  }

  public CompletableFuture<GetContainerStatusesResponse> containerStatuses(
      String nodeHttpAddress, GetContainerStatusesRequest request) {
    return http.call(
        Call.post(nodeHttpAddress, WirePaths.NM_CONTAINER_STATUSES, request), GetContainerStatusesResponse.class);
  }

  /** Completes with the container id once its NM accepted the launch. */
  public CompletableFuture<String> startContainer(Container container, ContainerLaunchContext launchContext) {
    var body =
        new StartContainersRequest(List.of(new StartContainerRequest(container.containerToken(), launchContext)));
    return startContainers(container.nodeHttpAddress(), body)
        .thenApply(r -> confirmed(container, r.succeeded(), r.failed()));
  }

  /** Completes with the container id once its NM accepted the stop. */
  public CompletableFuture<String> stopContainer(Container container) {
    return stopContainers(container.nodeHttpAddress(), new StopContainersRequest(List.of(container.containerToken())))
        .thenApply(r -> confirmed(container, r.succeeded(), r.failed()));
  }

  public CompletableFuture<ContainerStatus> getContainerStatus(Container container) {
    var body = new GetContainerStatusesRequest(List.of(container.containerToken()));
    return containerStatuses(container.nodeHttpAddress(), body).thenApply(r -> {
      refusal(container, r.failed()).ifPresent(e -> { throw e; });
      return (r.statuses() == null ? List.<ContainerStatus>of() : r.statuses()).stream()
          .filter(s -> container.id().equals(s.containerId()))
          .findFirst()
          .orElseThrow(() -> new RefusedException(container.id(), "", "NM reported no status"));
    });
  }

  private static String confirmed(Container container, List<String> succeeded, List<FailedRequest> failed) {
    refusal(container, failed).ifPresent(e -> { throw e; });
    if (succeeded == null || !succeeded.contains(container.id())) {
      throw new RefusedException(container.id(), "", "NM did not confirm the container");
    }
    return container.id();
  }

  private static Optional<RefusedException> refusal(Container container, List<FailedRequest> failed) {
    if (failed == null) return Optional.empty();
    return failed.stream().findFirst().map(f -> new RefusedException(
        f.containerId() == null ? container.id() : f.containerId(), f.exception(), f.message()));
  }

  /** The NM answered, and refused the request about this container. */
  public static final class RefusedException extends RuntimeException {
    private final String containerId;
    private final String exception;

    public RefusedException(String containerId, String exception, String message) {
      super((exception == null || exception.isEmpty() ? "" : exception + ": ") + message);
      this.containerId = containerId;
      this.exception = exception == null ? "" : exception;
    }

    public String containerId() {
      return containerId;
    }

    /** Simple name of the NM's exception, or empty. */
    public String exception() {
      return exception;
    }
  }
}
