package dev.bobbin.am;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.RemoteException;
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
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Starts, stops and queries containers on the NodeManager that hosts them, with the container
 * token the RM issued. Stages fail with {@link NmException} when the NM refuses a container, and
 * with the transport's exception when it cannot be reached.
 */
public final class NmClient {
  private final HttpClient client;
  private final Duration requestTimeout;

  public NmClient(HttpClient client, Duration requestTimeout) {
    this.client = client;
    this.requestTimeout = requestTimeout;
  }

  public static NmClient create() {
    Duration timeout = Duration.ofSeconds(30);
    return new NmClient(RmHttp.newHttpClient(Duration.ofSeconds(10)), timeout);
  }

  /** Completes with the container id once the NM accepted the launch. */
  public CompletionStage<String> startContainer(Container container, ContainerLaunchContext launchContext) {
    var body =
        new StartContainersRequest(List.of(new StartContainerRequest(container.containerToken(), launchContext)));
    return post(container, WirePaths.NM_START_CONTAINERS, body, StartContainersResponse.class)
        .thenApply(r -> single(container, r.succeeded(), r.failed()));
  }

  /** Completes with the container id once the NM accepted the stop. */
  public CompletionStage<String> stopContainer(Container container) {
    var body = new StopContainersRequest(List.of(container.containerToken()));
    return post(container, WirePaths.NM_STOP_CONTAINERS, body, StopContainersResponse.class)
        .thenApply(r -> single(container, r.succeeded(), r.failed()));
  }

  public CompletionStage<ContainerStatus> getContainerStatus(Container container) {
    var body = new GetContainerStatusesRequest(List.of(container.containerToken()));
    return post(container, WirePaths.NM_CONTAINER_STATUSES, body, GetContainerStatusesResponse.class)
        .thenApply(r -> {
          failure(container, r.failed()).ifPresent(e -> { throw e; });
          return (r.statuses() == null ? List.<ContainerStatus>of() : r.statuses()).stream()
              .filter(s -> container.id().equals(s.containerId()))
              .findFirst()
              .orElseThrow(() -> new NmException(container.id(), "", "NM reported no status"));
        });
  }

  private <T> CompletionStage<T> post(Container container, String path, Object body, Class<T> type) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(baseUrl(container.nodeHttpAddress()) + path))
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(WireCodec.write(body)))
            .build();
    return client
        .sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(response -> decode(container, response, type));
  }

  private static <T> T decode(Container container, HttpResponse<byte[]> response, Class<T> type) {
    if (response.statusCode() / 100 != 2) {
      Optional<RemoteException.Body> remote = WireCodec.remoteException(response.body());
      throw new NmException(
          container.id(),
          remote.map(RemoteException.Body::exception).orElse("HTTP " + response.statusCode()),
          remote.map(RemoteException.Body::message).orElseGet(() -> WireCodec.excerpt(response.body())));
    }
    try {
      return WireCodec.read(response.body(), type);
    } catch (IOException e) {
      throw new CompletionException(e);
    }
  }

  private static String single(Container container, List<String> succeeded, List<FailedRequest> failed) {
    failure(container, failed).ifPresent(e -> { throw e; });
    if (succeeded == null || !succeeded.contains(container.id())) {
      throw new NmException(container.id(), "", "NM did not confirm the container");
    }
    return container.id();
  }

  private static Optional<NmException> failure(Container container, List<FailedRequest> failed) {
    if (failed == null) return Optional.empty();
    return failed.stream()
        .findFirst()
        .map(f -> new NmException(
            f.containerId() == null ? container.id() : f.containerId(), f.exception(), f.message()));
  }

  static String baseUrl(String nodeHttpAddress) {
    String a = nodeHttpAddress.endsWith("/") ? nodeHttpAddress.substring(0, nodeHttpAddress.length() - 1) : nodeHttpAddress;
    return a.startsWith("http://") || a.startsWith("https://") ? a : "http://" + a;
  }

  /** The NM refused a request about one container. */
  public static final class NmException extends RuntimeException {
    private final String containerId;
    private final String exception;

    public NmException(String containerId, String exception, String message) {
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
