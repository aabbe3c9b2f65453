package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin rmadmin}: {@code yarn rmadmin} with its options as yarn spells them. */
@Command(name = "rmadmin", header = "Administers the ResourceManager, as yarn rmadmin.",
    description = "-refreshQueues; -refreshNodes [-g [SECONDS]]; -refreshUserToGroupsMappings. -refreshAdminAcls and"
        + " -getGroups are yarn's too, and refused here: the RM has no endpoint for them.")
final class RmAdminVerb extends YarnVerb {
  @Option(names = "-refreshQueues", description = "reload the scheduler's queues") boolean refreshQueues;
  @Option(names = "-refreshNodes", description = "re-read the NodeManager host lists") boolean refreshNodes;
  @Option(names = "-g", arity = "0..1", fallbackValue = "default", paramLabel = "SECONDS",
      description = "with -refreshNodes: decommission gracefully, waiting this long at most") String graceful;
  @Option(names = "-refreshUserToGroupsMappings", description = "look users' groups up afresh") boolean refreshGroups;
  @Option(names = "-refreshAdminAcls", description = "not supported") boolean refreshAdminAcls;
  @Option(names = "-getGroups", arity = "0..1", fallbackValue = "", paramLabel = "USER", description = "not supported")
  String getGroups;

  RmAdminVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String action = action(actions("-refreshQueues", refreshQueues, "-refreshNodes", refreshNodes,
        "-refreshUserToGroupsMappings", refreshGroups, "-refreshAdminAcls", refreshAdminAcls, "-getGroups", getGroups));
    if (!action.equals("-refreshNodes")) notWith(action, "-g", graceful);
    if (json()) throw new UsageException("--output json is for reads; rmadmin has none");
    return switch (action) {
      case "-refreshQueues" -> done(rm().refreshQueues(), "Queues refreshed");
      case "-refreshNodes" -> done(rm().refreshNodes(AdminCommand.graceful(graceful)), "Nodes refreshed");
      case "-refreshUserToGroupsMappings" -> done(rm().refreshUserToGroupsMappings(), "User to groups mappings refreshed");
      default -> throw RmFailure.error("rmadmin " + action + " is not supported: the ResourceManager has no"
          + (action.equals("-getGroups") ? " endpoint that reports a user's groups" : " admin ACL refresh; its admin ACL"
          + " is read from its configuration when it starts"));
    };
  }

  private int done(String result, String otherwise) {
    out.println(result.isBlank() ? otherwise : result);
    return 0;
  }
}
