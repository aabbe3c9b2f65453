package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin rmadmin}: {@code yarn rmadmin} with its options as yarn spells them. */
@Command(name = "rmadmin", header = "Administers the ResourceManager, as yarn rmadmin.",
    description = "-refreshQueues; -refreshNodes [-g [SECONDS]]; -refreshUserToGroupsMappings; -getGroups [USER]."
        + " -refreshAdminAcls is yarn's too, and refused here: the RM reads its admin ACL when it starts.")
final class RmAdminVerb extends YarnVerb {
  @Option(names = "-refreshQueues", description = "reload the scheduler's queues") boolean refreshQueues;
  @Option(names = "-refreshNodes", description = "re-read the NodeManager host lists") boolean refreshNodes;
  @Option(names = "-g", arity = "0..1", fallbackValue = "default", paramLabel = "SECONDS",
      description = "with -refreshNodes: decommission gracefully, waiting this long at most") String graceful;
  @Option(names = "-refreshUserToGroupsMappings", description = "look users' groups up afresh") boolean refreshGroups;
  @Option(names = "-refreshAdminAcls", description = "not supported") boolean refreshAdminAcls;
  @Option(names = "-getGroups", arity = "0..1", fallbackValue = "", paramLabel = "USER",
      description = "the groups the RM finds for USER (yourself by default; another user's for administrators)")
  String getGroups;

  RmAdminVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String action = action(actions("-refreshQueues", refreshQueues, "-refreshNodes", refreshNodes,
        "-refreshUserToGroupsMappings", refreshGroups, "-refreshAdminAcls", refreshAdminAcls, "-getGroups", getGroups));
    if (!action.equals("-refreshNodes")) notWith(action, "-g", graceful);
    if (json() && !action.equals("-getGroups")) throw new UsageException("--output json is for -getGroups, rmadmin's one read");
    return switch (action) {
      case "-refreshQueues" -> done(rm().refreshQueues(), "Queues refreshed");
      case "-refreshNodes" -> done(rm().refreshNodes(AdminCommand.graceful(graceful)), "Nodes refreshed");
      case "-refreshUserToGroupsMappings" -> done(rm().refreshUserToGroupsMappings(), "User to groups mappings refreshed");
      case "-getGroups" -> groups();
      default -> throw RmFailure.error("rmadmin " + action + " is not supported: the ResourceManager has no"
          + " admin ACL refresh; its admin ACL is read from its configuration when it starts");
    };
  }

  /** As yarn prints them: {@code USER : GROUP GROUP ...}. */
  private int groups() {
    JsonNode answer = rm().read("/admin/groups", getGroups.isBlank() ? Map.of() : Map.of("user", getGroups));
    if (json()) return printJson(answer);
    List<String> names = new ArrayList<>();
    answer.path("groups").forEach(g -> names.add(g.asText()));
    out.println((answer.path("user").asText() + " : " + String.join(" ", names)).strip());
    return 0;
  }

  private int done(String result, String otherwise) {
    out.println(result.isBlank() ? otherwise : result);
    return 0;
  }
}
