package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin queue -status Q}: {@code yarn queue -status}, from the scheduler's report. */
@Command(name = "queue", header = "Reports on a queue, as yarn queue -status.",
    description = "-status Q: the queue's report as the scheduler gives it (Fair, Capacity or FIFO), Q its full"
        + " path (root.a.b) or its name.")
final class QueueVerb extends YarnVerb {
  @Option(names = "-status", paramLabel = "QUEUE", required = true, description = "the queue") String status;

  QueueVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    if (status.isBlank()) throw new UsageException("-status needs a queue name");
    JsonNode scheduler = rm().read("/scheduler", Map.of()).path("scheduler").path("schedulerInfo");
    JsonNode queue = find(scheduler, status.strip())
        .orElseThrow(() -> RmFailure.error("Cannot get queue from RM by queueName = " + status
            + ", please check."));
    if (json()) return printJson(queue);
    out.println("Queue Information : ");
    scalarFields(queue);
    return 0;
  }

  /** The queue named {@code name} anywhere in the scheduler's tree, whatever the scheduler calls its fields. */
  static Optional<JsonNode> find(JsonNode node, String name) {
    if (node.isObject() && names(node, name)) return Optional.of(node);
    if (node.isContainerNode()) {
      for (JsonNode child : node) {
        Optional<JsonNode> found = find(child, name);
        if (found.isPresent()) return found;
      }
    }
    return Optional.empty();
  }

  private static boolean names(JsonNode queue, String name) {
    String full = text(queue, "queuePath").isEmpty() ? text(queue, "queueName") : text(queue, "queuePath");
    if (full.isEmpty()) return false;
    return full.equals(name) || text(queue, "queueName").equals(name) || full.endsWith("." + name)
        || ("root." + name).equals(full);
  }
}
