package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bobbin app --update-priority N --appId ID}: changes a running application's priority, as
 * {@code yarn application -appId ID -updatePriority N}, and prints the priority it runs at now.
 */
@Command(name = "app", header = "Changes an application, as yarn application -appId ID -updatePriority N.",
    description = "The RM caps the priority at yarn.cluster.max-application-priority; the answer is the priority "
        + "the application runs at. An ended application keeps the priority it had.")
final class AppCommand extends ClientCommand {
  @Option(names = "--appId", paramLabel = "APP_ID", required = true,
      description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  @Option(names = "--update-priority", paramLabel = "N", required = true,
      description = "the new application priority, a whole number from 0; higher runs first")
  int priority;

  AppCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String appId = applicationId(applicationId);
    atLeast("--update-priority", priority, 0);
    int now = rm().updatePriority(appId, priority);
    out.println(now == priority
        ? "Application " + appId + " now runs at priority " + now
        : "Application " + appId + " runs at priority " + now + " (asked for " + priority + ")");
    return 0;
  }
}
