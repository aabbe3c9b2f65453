package dev.bobbin.core.launch;

import dev.bobbin.core.scheduler.Scheduler;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.node.ContainerManagement;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Starts AM containers on their NodeManagers, as YARN's ApplicationMasterLauncher does. The AM
 * gets the RM addresses and its AM token in its environment. A failed start is reported to the
 * scheduler, which completes the container and so fails the attempt.
 */
public final class AmLauncher {
  public sealed interface Command extends CborSerializable {}

  public record Launch(
      String appId, String attemptId, String user, Container container, ContainerLaunchContext launch,
      String amToken, ActorRef<Scheduler.Command> replyTo) implements Command {}

  record Started(Launch launch, String error) implements Command {}

  private AmLauncher() {}

  public static Behavior<Command> create(List<String> rmAddresses, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).build();
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(Launch.class, l -> {
          ctx.getLog().info("Launching AM container {} for {} on {}", l.container().id(), l.attemptId(),
              l.container().nodeId());
          ctx.pipeToSelf(start(http, l, rmAddresses, timeout), (resp, err) -> new Started(l,
              err != null ? err.toString() : resp.statusCode() != 200 ? "HTTP " + resp.statusCode() + ": " + resp.body()
                  : failure(resp.body())));
          return Behaviors.same();
        })
        .onMessage(Started.class, s -> {
          if (s.error() != null) {
            ctx.getLog().warn("AM container {} failed to start: {}", s.launch().container().id(), s.error());
            s.launch().replyTo().tell(new Scheduler.AmLaunchFailed(s.launch().container().id(),
                "AM container failed to launch: " + s.error()));
          }
          return Behaviors.same();
        })
        .build());
  }

  private static java.util.concurrent.CompletionStage<HttpResponse<String>> start(
      HttpClient http, Launch l, List<String> rmAddresses, Duration timeout) {
    Map<String, String> env = new HashMap<>(l.launch().environment());
    env.put(ContainerEnv.RM_ADDRESSES, String.join(",", rmAddresses));
    env.put(ContainerEnv.AM_TOKEN, l.amToken());
    var request = new ContainerManagement.StartContainersRequest(List.of(
        new ContainerManagement.StartContainerRequest(l.container().containerToken(),
            new ContainerLaunchContext(l.launch().commands(), env))));
    try {
      HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + l.container().nodeHttpAddress()
              + WirePaths.NM_START_CONTAINERS))
          .timeout(timeout)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(WireJson.mapper().writeValueAsString(request)))
          .build();
      return http.sendAsync(req, HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    }
  }

  /** The NM's reason when it refused the start, or null when it started the container. */
  private static String failure(String body) {
    try {
      var resp = WireJson.mapper().readValue(body, ContainerManagement.StartContainersResponse.class);
      if (resp.failed() == null || resp.failed().isEmpty()) return null;
      var f = resp.failed().get(0);
      return f.exception() + ": " + f.message();
    } catch (Exception e) {
      return "unreadable NM response: " + e.getMessage();
    }
  }
}
