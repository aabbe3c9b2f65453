package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin nodes}: lists NodeManagers with their usage, like {@code yarn node -list}. */
@Command(name = "nodes", header = "Lists NodeManagers with their usage, as yarn node -list.")
final class NodesCommand extends ClientCommand {
  @Option(names = "--states", paramLabel = "S1,S2",
      description = "only nodes in these states (e.g. RUNNING,UNHEALTHY); default all")
  String states;

  NodesCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    Map<String, String> query = new LinkedHashMap<>();
    if (states != null) query.put("states", stateList("--states", states));
    RmClient rm = rm();

    List<JsonNode> nodes = YarnJson.elements(rm.get(AppPaths.NODES, query).json(), "nodes", "node");
    out.println("Total number of nodes: " + nodes.size());
    TextTable table = new TextTable(
        "Node-Id", "Node-State", "Node-Http-Address", "Containers", "Memory-Used/Total", "VCores-Used/Total");
    for (JsonNode node : nodes) {
      long usedMemory = YarnJson.number(node, "usedMemoryMB", 0);
      long usedVcores = YarnJson.number(node, "usedVirtualCores", 0);
      table.row(
          YarnJson.text(node, "id", ""),
          YarnJson.text(node, "state", ""),
          Formats.orNotAvailable(YarnJson.text(node, "nodeHTTPAddress", "")),
          Long.toString(YarnJson.number(node, "numContainers", 0)),
          usedMemory + "/" + total(node, "memory", usedMemory, "availMemoryMB") + " MB",
          usedVcores + "/" + total(node, "vCores", usedVcores, "availableVirtualCores"));
    }
    table.print(out);
    return 0;
  }

  /** {@code totalResource} is 3.x only; older RMs give used and available. */
  private static long total(JsonNode node, String field, long used, String availableField) {
    long total = YarnJson.number(node.path("totalResource"), field, -1);
    return total >= 0 ? total : used + YarnJson.number(node, availableField, 0);
  }
}
