package dev.bobbin.core.launch;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.node.ContainerManagement;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Starts AM containers on their NodeManagers, as YARN's ApplicationMasterLauncher does: each start
 * is one blocking call on a pool of its own ({@code bobbin.rm.am-launcher-threads}), so a slow
 * NodeManager holds a launcher thread and nothing else. The AM gets the RM addresses and its AM
 * token in its environment. Each start is answered with {@link Launched}; the scheduler completes
 * a container whose start failed, and so fails the attempt.
 */
public final class AmLauncher {
  public sealed interface Command extends CborSerializable {}

  public record Launch(
      String appId, String attemptId, String user, Container container, ContainerLaunchContext launch,
      String amToken, ActorRef<Launched> replyTo) implements Command {
    public Launch withReplyTo(ActorRef<Launched> to) {
      return new Launch(appId, attemptId, user, container, launch, amToken, to);
    }
  }

  /** @param error why the start failed, or null when the NodeManager started the container */
  public record Launched(String containerId, String error) implements CborSerializable {}

  /** @param error why the start failed, or null when the NodeManager started the container */
  record Started(Launch launch, String error) implements Command {}

  private AmLauncher() {}

  public static Behavior<Command> create(List<String> rmAddresses, Duration timeout, int threads) {
    return Behaviors.setup(ctx -> {
      ExecutorService pool = newPool(threads);
      return Behaviors.receive(Command.class)
          .onMessage(Launch.class, l -> {
            ctx.getLog().info("Launching AM container {} for {} on {}", l.container().id(), l.attemptId(),
                l.container().nodeId());
            ctx.pipeToSelf(CompletableFuture.supplyAsync(() -> start(l, rmAddresses, timeout), pool),
                (error, thrown) -> new Started(l, thrown != null ? thrown.toString() : error));
            return Behaviors.same();
          })
          .onMessage(Started.class, s -> {
            if (s.error() != null) {
              ctx.getLog().warn("AM container {} failed to start: {}", s.launch().container().id(), s.error());
            }
            s.launch().replyTo().tell(new Launched(s.launch().container().id(), s.error()));
            return Behaviors.same();
          })
          .onSignal(PostStop.class, sig -> {
            pool.shutdownNow();
            return Behaviors.same();
          })
          .build();
    });
  }

  private static ExecutorService newPool(int threads) {
    AtomicInteger n = new AtomicInteger();
    return Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "am-launcher-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * POSTs the start to the NodeManager. A blocking connection, where the JDK's asynchronous client
   * spent about a third more of the RM's CPU per launch on its selector and worker threads. No
   * proxy, as that client had none; and a streamed body, which is never sent a second time: a
   * start that fails midway fails the attempt rather than maybe starting the container twice.
   *
   * @return why the start failed, or null when the NodeManager started the container
   */
  static String start(Launch l, List<String> rmAddresses, Duration timeout) {
    Map<String, String> env = new HashMap<>(l.launch().environment());
    env.put(ContainerEnv.RM_ADDRESSES, String.join(",", rmAddresses));
    env.put(ContainerEnv.AM_TOKEN, l.amToken());
    var request = new ContainerManagement.StartContainersRequest(List.of(
        new ContainerManagement.StartContainerRequest(l.container().containerToken(),
            new ContainerLaunchContext(l.launch().commands(), env))));
    try {
      byte[] body = WireJson.mapper().writeValueAsBytes(request);
      var conn = (HttpURLConnection) URI.create("http://" + l.container().nodeHttpAddress()
          + WirePaths.NM_START_CONTAINERS).toURL().openConnection(Proxy.NO_PROXY);
      conn.setConnectTimeout((int) timeout.toMillis());
      conn.setReadTimeout((int) timeout.toMillis());
      conn.setRequestMethod("POST");
      conn.setRequestProperty("Content-Type", "application/json");
      conn.setDoOutput(true);
      conn.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = conn.getOutputStream()) {
        out.write(body);
      }
      int status = conn.getResponseCode();
      // Reading the body to its end, error or not, lets the connection be kept for the next start.
      String response = readFully(status >= 400 ? conn.getErrorStream() : conn.getInputStream());
      return status != 200 ? "HTTP " + status + ": " + response : failure(response);
    } catch (IOException | RuntimeException e) {
      return e.toString();
    }
  }

  private static String readFully(InputStream in) throws IOException {
    if (in == null) return "";
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The NM's reason when it refused the start, or null when it started the container. */
  private static String failure(String body) {
    try {
      var resp = WireJson.mapper().readValue(body, ContainerManagement.StartContainersResponse.class);
      if (resp.failed() == null || resp.failed().isEmpty()) return null;
      var f = resp.failed().get(0);
      return f.exception() + ": " + f.message();
    } catch (IOException e) {
      return "unreadable NM response: " + e.getMessage();
    }
  }
}
