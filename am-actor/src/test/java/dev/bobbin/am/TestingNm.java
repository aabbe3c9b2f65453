package dev.bobbin.am;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.FailedRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/**
 * A fake NodeManager for container management: checks each container token against the RM's
 * secret, records launches, and calls {@code onStart} instead of running a process.
 */
public final class TestingNm implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService thread = Executors.newSingleThreadExecutor();
  private final byte[] secret;
  private final BiConsumer<String, ContainerLaunchContext> onStart;

  public final Map<String, ContainerLaunchContext> started = new ConcurrentHashMap<>();
  public final Set<String> stopped = ConcurrentHashMap.newKeySet();
  /** Container ids whose start the NM refuses. */
  public final Set<String> refuseStart = ConcurrentHashMap.newKeySet();

  public TestingNm(byte[] secret, BiConsumer<String, ContainerLaunchContext> onStart) throws IOException {
    this.secret = secret;
    this.onStart = onStart;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(WirePaths.NM_START_CONTAINERS, ex -> respond(ex, start(read(ex, StartContainersRequest.class))));
    server.createContext(WirePaths.NM_STOP_CONTAINERS, ex -> respond(ex, stop(read(ex, StopContainersRequest.class))));
    server.createContext(
        WirePaths.NM_CONTAINER_STATUSES, ex -> respond(ex, status(read(ex, GetContainerStatusesRequest.class))));
    server.setExecutor(thread);
    server.start();
  }

  /** host:port, as an RM puts it into {@code Container.nodeHttpAddress}. */
  public String httpAddress() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    thread.shutdownNow();
  }

  private StartContainersResponse start(StartContainersRequest request) {
    List<String> ok = new ArrayList<>();
    List<FailedRequest> failed = new ArrayList<>();
    for (StartContainerRequest r : request.requests()) {
      String id;
      try {
        id = Tokens.verifyContainerToken(r.containerToken(), secret).containerId();
      } catch (Tokens.InvalidTokenException e) {
        failed.add(new FailedRequest(null, "InvalidToken", e.getMessage()));
        continue;
      }
      if (refuseStart.contains(id)) {
        failed.add(new FailedRequest(id, "YarnException", "disk full"));
        continue;
      }
      started.put(id, r.launchContext());
      ok.add(id);
      onStart.accept(id, r.launchContext());
    }
    return new StartContainersResponse(ok, failed);
  }

  private StopContainersResponse stop(StopContainersRequest request) {
    List<String> ok = new ArrayList<>();
    for (String token : request.containerTokens()) {
      String id = Tokens.verifyContainerToken(token, secret).containerId();
      stopped.add(id);
      ok.add(id);
    }
    return new StopContainersResponse(ok, List.of());
  }

  private GetContainerStatusesResponse status(GetContainerStatusesRequest request) {
    List<ContainerStatus> statuses = new ArrayList<>();
    for (String token : request.containerTokens()) {
      var id = Tokens.verifyContainerToken(token, secret);
      statuses.add(ContainerStatus.running(id.containerId(), id.resource()));
    }
    return new GetContainerStatusesResponse(statuses, List.of());
  }

  private static <T> T read(HttpExchange ex, Class<T> type) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      return WireJson.mapper().readValue(in.readAllBytes(), type);
    }
  }

  private static void respond(HttpExchange ex, Object body) throws IOException {
    try {
      byte[] out = WireJson.mapper().writeValueAsBytes(body);
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.sendResponseHeaders(200, out.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(out);
      }
    } finally {
      ex.close();
    }
  }
}
