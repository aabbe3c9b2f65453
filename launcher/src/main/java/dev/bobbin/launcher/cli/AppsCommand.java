package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code bobbin apps}: lists applications, like {@code yarn application -list}. */
final class AppsCommand implements ClientCommand {
  @Override
  public String usage() {
    return """
        usage: bobbin apps [--states S1,S2] [--queue Q] [--user U] [--rm URL[,URL...]]
          --states S1,S2   only applications in these states (e.g. RUNNING,ACCEPTED); default all
          --queue Q        only applications in this queue
          --user U         only applications of this user
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of("--states", "--queue");
  }

  @Override
  public int run(CommandLine line, ClientContext context, PrintStream out) {
    line.requireNoPositionals();
    Map<String, String> query = new LinkedHashMap<>();
    line.stateList("--states").ifPresent(s -> query.put("states", s));
    line.value("--queue").ifPresent(q -> query.put("queue", q));
    line.value("--user").ifPresent(u -> query.put("user", u));
    RmClient rm = RmClient.from(line, context);

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
