package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin apps}: lists applications, like {@code yarn application -list}. */
@Command(name = "apps", header = "Lists applications, as yarn application -list.",
    description = "With --user, only that user's applications (asked for as that user).")
final class AppsCommand extends ClientCommand {
  @Option(names = "--states", paramLabel = "S1,S2",
      description = "only applications in these states (e.g. RUNNING,ACCEPTED); default all")
  String states;

  @Option(names = "--queue", paramLabel = "Q", description = "only applications in this queue")
  String queue;

  AppsCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    Map<String, String> query = new LinkedHashMap<>();
    if (states != null) query.put("states", stateList("--states", states));
    if (queue != null) query.put("queue", queue);
    if (target.user != null) query.put("user", target.user);
    RmClient rm = rm();

    List<JsonNode> apps = YarnJson.elements(rm.get(AppPaths.APPS, query).json(), "apps", "app");
    out.println("Total number of applications: " + apps.size());
    TextTable table = new TextTable(
        "Application-Id", "Name", "Type", "User", "Queue", "State", "Final-Status", "Progress");
    for (JsonNode app : apps) {
      table.row(
          YarnJson.text(app, "id", ""),
          YarnJson.text(app, "name", ""),
          YarnJson.text(app, "applicationType", ""),
          YarnJson.text(app, "user", ""),
          YarnJson.text(app, "queue", ""),
          YarnJson.text(app, "state", ""),
          YarnJson.text(app, "finalStatus", ""),
          Formats.progress(app));
    }
    table.print(out);
    return 0;
  }
}
