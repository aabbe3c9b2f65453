package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import java.util.Set;

/** {@code bobbin admin refresh-queues}: reloads the Fair queues, like {@code yarn rmadmin -refreshQueues}. */
final class AdminCommand implements ClientCommand {
  static final String REFRESH_QUEUES = "/ws/v1/cluster/admin/refresh-queues";

  @Override
  public String usage() {
    return """
        usage: bobbin admin refresh-queues [--rm URL[,URL...]]
          refresh-queues   re-read the Fair scheduler's allocation file or queue configuration;
                           an invalid one is refused with the element and reason, and the running
                           configuration stays
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of();
  }

  @Override
  public int run(CommandLine line, ClientContext context, PrintStream out) {
    line.requireAction("refresh-queues");
    RmResponse r = RmClient.from(line, context).write("PUT", REFRESH_QUEUES, null);
    out.println(YarnJson.text(r.json(), "result", "Queues refreshed"));
    return 0;
  }
}
