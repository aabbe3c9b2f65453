package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bobbin app --update-priority N --appId ID} and {@code bobbin app --move-to-queue Q ID}:
 * changes a running application's priority or queue, as {@code yarn application -updatePriority}
 * and {@code -movetoqueue} do, and prints what it runs at now.
 */
@Command(name = "app", header = "Changes an application, as yarn application -appId ID -updatePriority N | -movetoqueue Q.",
    description = {"The RM caps the priority at yarn.cluster.max-application-priority; the answer is the priority "
        + "the application runs at. An ended application keeps the priority it had.",
        "A move goes to a leaf queue that takes submissions and has room for the application under its limits; "
            + "only an ACCEPTED or RUNNING application moves, and a refused move changes nothing."})
final class AppCommand extends ClientCommand {
  @Option(names = "--appId", paramLabel = "APP_ID", description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  @Parameters(arity = "0..1", paramLabel = "APP_ID", description = "the application, instead of --appId")
  String positionalId;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Change change;

  static final class Change {
    @Option(names = "--update-priority", paramLabel = "N",
        description = "the new application priority, a whole number from 0; higher runs first")
    Integer priority;

    @Option(names = "--move-to-queue", paramLabel = "QUEUE",
        description = "the leaf queue to move the application to: its path (root.a.b or a.b) or, with the "
            + "capacity scheduler, its unique name")
    String queue;
  }

  AppCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String appId = applicationId(appIdGiven());
    if (change.queue != null) return move(appId, change.queue.strip());
    int priority = change.priority;
    atLeast("--update-priority", priority, 0);
    int now = rm().updatePriority(appId, priority);
    out.println(now == priority
        ? "Application " + appId + " now runs at priority " + now
        : "Application " + appId + " runs at priority " + now + " (asked for " + priority + ")");
    return 0;
  }

  private int move(String appId, String queue) {
    if (queue.isEmpty()) throw new UsageException("--move-to-queue needs a queue name");
    String now = rm().moveToQueue(appId, queue);
    out.println("Application " + appId + " now runs in queue " + now);
    return 0;
  }

  private String appIdGiven() {
    if (applicationId != null && positionalId != null && !applicationId.equals(positionalId)) {
      throw new UsageException("Two applications given: --appId " + applicationId + " and " + positionalId);
    }
    String id = applicationId != null ? applicationId : positionalId;
    if (id == null) throw new UsageException("Missing the application: give --appId APP_ID or APP_ID");
    return id;
  }
}
