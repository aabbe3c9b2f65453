package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.am.shell.ShellAmSpec;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/** {@code bobbin submit}: runs a shell command in N containers through the distributed-shell AM. */
final class SubmitCommand implements ClientCommand {
  // The AM asks for its worker containers at this priority; the application priority is separate.
  private static final int WORKER_PRIORITY = 0;

  @Override
  public String usage() {
    return """
        usage: bobbin submit --shell CMD [--containers N] [--memory MB] [--vcores V] [--queue Q]
                             [--name NAME] [--priority P] [--max-attempts N] [--am-memory MB] [--wait]
                             [--rm URL[,URL...]] [--user NAME]
          --shell CMD        shell command each container runs (required)
          --containers N     number of containers (default 1)
          --memory MB        memory per container (default 1024)
          --vcores V         virtual cores per container (default 1)
          --queue Q          queue to submit to (default "default")
          --name NAME        application name (default DistributedShell)
          --priority P       application priority (default 0)
          --max-attempts N   AM attempts (default: the cluster's setting)
          --am-memory MB     memory of the AM container (default 1024)
          --wait             follow the application until it ends; exit 0 only if it succeeded
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return SubmitOptions.VALUED;
  }

  @Override
  public Set<String> switches() {
    return SubmitOptions.SWITCHES;
  }

  @Override
  public int run(CommandLine line, ClientContext context, PrintStream out) {
    SubmitOptions options = SubmitOptions.parse(line);
    List<String> amCommands = amCommands(options, context.amClasspath());
    RmClient rm = RmClient.from(line, context);

    JsonNode newApp = rm.write("POST", AppPaths.NEW_APPLICATION, null).json();
    String appId = YarnJson.text(newApp, "application-id", "");
    if (appId.isBlank()) throw RmFailure.error("The ResourceManager gave no application-id: " + newApp);
    checkFitsCluster(options, newApp.path("maximum-resource-capability"));

    RmResponse submitted = rm.write("POST", AppPaths.APPS, SubmissionBody.of(appId, options, amCommands));
    if (submitted.status() != 202 && submitted.status() != 200) {
      throw RmFailure.error("The ResourceManager answered HTTP " + submitted.status() + " to the submission of " + appId);
    }
    out.println("Submitted application " + appId + " to queue " + options.queue());
    return options.await() ? new AppWaiter(rm, out, context.pollInterval()).awaitEnd(appId) : 0;
  }

  private static List<String> amCommands(SubmitOptions options, String classpath) {
    try {
      return ShellAmSpec.commands(
          classpath, options.shell(), options.containers(), options.containerSize(), WORKER_PRIORITY);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The RM checks only the AM's size; oversized workers would fail later inside the AM. */
  private static void checkFitsCluster(SubmitOptions options, JsonNode maximum) {
    long maxMemory = YarnJson.number(maximum, "memory", Long.MAX_VALUE);
    long maxVcores = YarnJson.number(maximum, "vCores", Long.MAX_VALUE);
    if (options.containerSize().memory() > maxMemory || options.containerSize().vCores() > maxVcores) {
      throw RmFailure.error("Containers of " + options.containerSize() + " exceed the cluster's maximum of <memory:"
          + maxMemory + ", vCores:" + maxVcores + ">");
    }
  }
}
