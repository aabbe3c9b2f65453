package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.AppsQuery;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin apps}: lists applications, like {@code yarn application -list}. */
@Command(name = "apps", header = "Lists applications, as yarn application -list.",
    description = "With --user, only that user's applications (asked for as that user).")
final class AppsCommand extends YarnVerb {
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
    AppsQuery query = AppsQuery.all().withQueue(queue).withUser(target.user);
    if (states != null) query = query.withStates(states("--states", states, YarnApplicationState.class));

    if (json()) return printJson(rm().read("/apps", query.parameters()));
    List<AppInfo> apps = rm().applications(query);
    out.println("Total number of applications: " + apps.size());
    TextTable table = new TextTable(
        "Application-Id", "Name", "Type", "User", "Queue", "State", "Final-Status", "Progress");
    for (AppInfo app : apps) {
      table.row(
          Formats.text(app.id()),
          Formats.text(app.name()),
          Formats.text(app.applicationType()),
          Formats.text(app.user()),
          Formats.text(app.queue()),
          Formats.text(app.state()),
          Formats.text(app.finalStatus()),
          Formats.progress(app.progress()));
    }
    table.print(out);
    return 0;
  }
}
