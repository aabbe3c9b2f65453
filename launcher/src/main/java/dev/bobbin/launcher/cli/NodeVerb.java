package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.NodeState;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin node}: {@code yarn node -list [-all] [-states S,..]|-status NODE_ID}. */
@Command(name = "node", header = "Lists and reports on NodeManagers, as yarn node.",
    description = "-list: the RUNNING nodes, or with -all every node, or with -states those in these states;"
        + " -status NODE_ID: one node's report.")
final class NodeVerb extends YarnVerb {
  @Option(names = "-list", description = "list nodes") boolean list;
  @Option(names = "-all", description = "with -list: nodes in every state") boolean all;
  @Option(names = "-states", paramLabel = "S1,S2", description = "with -list: nodes in these states") String states;
  @Option(names = "-status", paramLabel = "NODE_ID", description = "one node's report, host:port") String status;

  NodeVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String action = action(actions("-list", list, "-status", status));
    if (action.equals("-status")) {
      notWith(action, "-all", all);
      notWith(action, "-states", states);
      return status(status);
    }
    if (all && states != null) throw new UsageException("-all and -states cannot be combined");
    Set<NodeState> filter = all ? Set.of()
        : states == null ? Set.of(NodeState.RUNNING) : states("-states", states, NodeState.class);
    return list(filter);
  }

  private int list(Set<NodeState> filter) {
    String names = filter.stream().map(Enum::name).sorted().collect(Collectors.joining(","));
    JsonNode answer = rm().read("/nodes", filter.isEmpty() ? Map.of() : Map.of("states", names));
    if (json()) return printJson(answer);
    List<JsonNode> nodes = elements(answer, "nodes", "node");
    out.println("Total Nodes:" + nodes.size());
    TextTable table = new TextTable("Node-Id", "Node-State", "Node-Http-Address", "Number-of-Running-Containers");
    for (JsonNode n : nodes) {
      table.row(text(n, "id"), text(n, "state"), orNa(n, "nodeHTTPAddress"), text(n, "numContainers"));
    }
    table.print(out, TERMINAL_WIDTH, 0, 2);
    return 0;
  }

  private int status(String nodeId) {
    if (!Ids.isNodeId(nodeId)) throw new UsageException("Invalid node id '" + nodeId + "', expected host:port");
    JsonNode answer = rm().read("/nodes/" + nodeId, Map.of());
    if (json()) return printJson(answer);
    JsonNode n = answer.path("node");
    out.println("Node Report : ");
    field("Node-Id", text(n, "id"));
    field("Rack", orNa(n, "rack"));
    field("Node-State", text(n, "state"));
    field("Node-Http-Address", orNa(n, "nodeHTTPAddress"));
    field("Last-Health-Update", Formats.time(n.path("lastHealthUpdate").asLong()));
    field("Health-Report", text(n, "healthReport"));
    field("Containers", text(n, "numContainers"));
    field("Memory-Used", n.path("usedMemoryMB").asLong() + "MB");
    field("Memory-Capacity", (n.path("usedMemoryMB").asLong() + n.path("availMemoryMB").asLong()) + "MB");
    field("CPU-Used", n.path("usedVirtualCores").asLong() + " vcores");
    field("CPU-Capacity", (n.path("usedVirtualCores").asLong() + n.path("availableVirtualCores").asLong()) + " vcores");
    return 0;
  }
}
