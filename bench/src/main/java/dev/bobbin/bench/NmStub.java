package dev.bobbin.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The container-management endpoint every simulated NodeManager shares: the RM's AM launcher
 * posts AM containers here, with the container token (checked with the container-token keys the
 * simulated NodeManagers were handed, as a real NodeManager does) and the AM token in the environment, which starts a simulated AM.
 */
final class NmStub implements AutoCloseable {
  interface AmStarter {
    void start(String containerId, String nodeId, String amToken);
  }

  final AtomicLong launches = new AtomicLong();
  private final HttpServer server;
  private final ExecutorService executor;

  NmStub(Tokens.KeyLookup keys, AmStarter starter) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "sim-nm-stub");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(WirePaths.NM_START_CONTAINERS, ex -> {
      try (ex) {
        byte[] body;
        try (InputStream in = ex.getRequestBody()) {
          body = in.readAllBytes();
        }
        var req = WireJson.mapper().readValue(body, ContainerManagement.StartContainersRequest.class);
        List<String> ok = new ArrayList<>();
        List<ContainerManagement.FailedRequest> failed = new ArrayList<>();
        for (var r : req.requests()) {
          try {
            Tokens.ContainerTokenIdentifier id = Tokens.verifyContainerToken(r.containerToken(), keys);
            String amToken = r.launchContext().environment().get(ContainerEnv.AM_TOKEN);
            launches.incrementAndGet();
            starter.start(id.containerId(), id.nodeId(), amToken);
            ok.add(id.containerId());
          } catch (RuntimeException e) {
            failed.add(new ContainerManagement.FailedRequest("", "InvalidToken", e.getMessage()));
          }
        }
        reply(ex, WireJson.mapper().writeValueAsBytes(new ContainerManagement.StartContainersResponse(ok, failed)));
      }
    });
    server.start();
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  private static void reply(HttpExchange ex, byte[] json) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(200, json.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(json);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
