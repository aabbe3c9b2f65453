package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.Ids;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin container}: {@code yarn container -list|-status}. */
@Command(name = "container", header = "Lists and reports on containers, as yarn container.",
    description = "-list ATTEMPT_ID: the attempt's containers (for the current attempt every live container of the"
        + " application); -status CONTAINER_ID: one live container's report.")
final class ContainerVerb extends YarnVerb {
  @Option(names = "-list", paramLabel = "ATTEMPT_ID", description = "an attempt's containers") String list;
  @Option(names = "-status", paramLabel = "CONTAINER_ID", description = "one container's report") String status;

  ContainerVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    return action(actions("-list", list, "-status", status)).equals("-list") ? list(AttemptVerb.attemptId(list))
        : status(containerId(status));
  }

  private static String containerId(String id) {
    if (!Ids.isContainerId(id)) {
      throw new UsageException("Invalid container id '" + id + "', expected container_<clusterTimestamp>_<app>_<attempt>_<n>");
    }
    return id;
  }

  private JsonNode containers(String attemptId) {
    return rm().read("/apps/" + Ids.applicationIdOfAttempt(attemptId) + "/appattempts/" + attemptId + "/containers",
        Map.of());
  }

  private int list(String attemptId) {
    JsonNode answer = containers(attemptId);
    if (json()) return printJson(answer);
    List<JsonNode> containers = elements(answer, "containers", "container");
    out.println("Total number of containers :" + containers.size());
    TextTable table = new TextTable("Container-Id", "State", "Node");
    for (JsonNode c : containers) {
      table.row(text(c, "containerId"), orNa(c, "containerState"), orNa(c, "nodeId"));
    }
    table.print(out, TERMINAL_WIDTH, 2);
    return 0;
  }

  /** The RM reports containers by attempt, so the container is looked up among its attempt's. */
  private int status(String containerId) {
    JsonNode container = elements(containers(Ids.attemptIdOfContainer(containerId)), "containers", "container")
        .stream().filter(c -> containerId.equals(text(c, "containerId"))).findFirst()
        .orElseThrow(() -> RmFailure.error("Container " + containerId + " not found: the RM reports live containers only"));
    if (json()) return printJson(container);
    out.println("Container Report : ");
    field("Container-Id", containerId);
    field("State", orNa(container, "containerState"));
    field("Host", orNa(container, "nodeId"));
    field("NodeHttpAddress", orNa(container, "nodeHttpAddress"));
    return 0;
  }
}
