package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.rest.NodeInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bobbin nodes}: lists NodeManagers with their usage, like {@code yarn node -list}, and what
 * each last said of its health ({@code yarn node -status}'s Health-Report), which tells why an
 * UNHEALTHY node takes no containers.
 */
@Command(name = "nodes", header = "Lists NodeManagers with their usage, as yarn node -list.")
final class NodesCommand extends YarnVerb {
  @Option(names = "--states", paramLabel = "S1,S2",
      description = "only nodes in these states (e.g. RUNNING,UNHEALTHY); default all")
  String states;

  NodesCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    Set<NodeState> filter = states == null ? Set.of() : states("--states", states, NodeState.class);

    if (json()) {
      return printJson(rm().read("/nodes", filter.isEmpty() ? Map.of()
          : Map.of("states", filter.stream().map(Enum::name).sorted().collect(Collectors.joining(",")))));
    }
    List<NodeInfo> nodes = rm().nodes(filter);
    out.println("Total number of nodes: " + nodes.size());
    TextTable table = new TextTable(
        "Node-Id", "Node-State", "Node-Http-Address", "Containers", "Memory-Used/Total", "VCores-Used/Total",
        "Health-Report");
    for (NodeInfo node : nodes) {
      // totalResource is YARN 3's; older RMs give what is used and what is available.
      Resource total = node.totalResource();
      table.row(
          Formats.text(node.id()),
          Formats.text(node.state()),
          Formats.orNotAvailable(node.nodeHTTPAddress()),
          Integer.toString(node.numContainers()),
          node.usedMemoryMB() + "/" + (total != null ? total.memory() : node.usedMemoryMB() + node.availMemoryMB())
              + " MB",
          node.usedVirtualCores() + "/"
              + (total != null ? total.vCores() : node.usedVirtualCores() + node.availableVirtualCores()),
          Formats.text(node.healthReport()));
    }
    table.print(out);
    return 0;
  }
}
