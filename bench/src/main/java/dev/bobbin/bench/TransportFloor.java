package dev.bobbin.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatcher0;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What the NM protocol's transport costs before the RM does anything: a bare Pekko HTTP server,
 * with Pekko's default settings, that reads each register and heartbeat body as the RM's routes do
 * and answers it with a fixed response made once. The heartbeat scenario runs the same simulators
 * against it, at the same pace, in a JVM of its own started like the RM's. It also answers
 * {@code GET /ws/v1/cluster/info}, so it is awaited like an RM.
 */
@Command(name = "transport-floor", description = "The heartbeat scenario's floor: fixed answers to the NM protocol.")
public final class TransportFloor extends AllDirectives implements Callable<Integer> {
  @Option(names = "--port", paramLabel = "PORT", required = true, description = "the HTTP port on 127.0.0.1")
  int port;

  private final byte[] registered;
  private final byte[] heartbeat;

  private TransportFloor() throws Exception {
    ObjectMapper json = WireJson.mapper();
    registered = json.writeValueAsBytes(new RegisterNodeResponse(NodeAction.NORMAL, "", 1, 1000, List.of()));
    heartbeat = json.writeValueAsBytes(
        new NodeHeartbeatResponse(1, NodeAction.NORMAL, List.of(), List.of(), List.of(), 1000, ""));
  }

  /** Serves until killed; exits only when the command line is wrong or the port cannot be bound. */
  public static void main(String[] args) throws Exception {
    int code = new CommandLine(new TransportFloor()).execute(args);
    if (code != 0) System.exit(code);
  }

  @Override
  public Integer call() throws Exception {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "transport-floor");
    Http.get(system).newServerAt("127.0.0.1", port).bind(routes()).toCompletableFuture().get();
    return 0;
  }

  private Route routes() {
    return concat(
        fixed(WirePaths.NM_REGISTER, registered),
        fixed(WirePaths.NM_HEARTBEAT, heartbeat),
        path(segments("/ws/v1/cluster/info"), () -> get(() ->
            complete(HttpResponse.create().withEntity(ContentTypes.APPLICATION_JSON, "{}")))));
  }

  private Route fixed(String path, byte[] response) {
    return path(segments(path), () -> post(() -> entity(Unmarshaller.entityToByteArray(), body ->
        complete(HttpResponse.create().withEntity(ContentTypes.APPLICATION_JSON, response)))));
  }

  private static PathMatcher0 segments(String path) {
    return PathMatchers.separateOnSlashes(path.substring(1));
  }
}
