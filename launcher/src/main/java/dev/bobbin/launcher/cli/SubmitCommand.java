package dev.bobbin.launcher.cli;

import dev.bobbin.am.shell.ShellAmSpec;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.NewApplication;
import dev.bobbin.protocol.LocalResource;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin submit}: runs a shell command in N containers through the distributed-shell AM. */
@Command(name = "submit", header = "Runs a shell command in containers (distributed shell).",
    description = "The distributed-shell AM runs CMD with bash in each of N containers.")
final class SubmitCommand extends ClientCommand {
  // The AM asks for its worker containers at this priority; the application priority is separate.
  private static final int WORKER_PRIORITY = 0;
  static final String DEFAULT_NAME = "DistributedShell";
  /** 0 lets the RM apply {@code yarn.resourcemanager.am.max-attempts}. */
  static final int CLUSTER_DEFAULT_ATTEMPTS = 0;

  @Option(names = "--shell", paramLabel = "CMD", required = true, description = "shell command each container runs")
  String shell;

  @Option(names = "--containers", paramLabel = "N", description = "number of containers (default: ${DEFAULT-VALUE})")
  int containers = 1;

  @Option(names = "--memory", paramLabel = "MB", description = "memory per container (default: ${DEFAULT-VALUE})")
  int memory = 1024;

  @Option(names = "--vcores", paramLabel = "V", description = "virtual cores per container (default: ${DEFAULT-VALUE})")
  int vcores = 1;

  @Option(names = "--queue", paramLabel = "Q", description = "queue to submit to (default: ${DEFAULT-VALUE})")
  String queue = "default";

  @Option(names = "--name", paramLabel = "NAME", description = "application name (default: ${DEFAULT-VALUE})")
  String name = DEFAULT_NAME;

  @Option(names = "--priority", paramLabel = "P",
      description = "application priority, higher first (default: the queue's default-application-priority)")
  Integer priority;

  @Option(names = "--max-attempts", paramLabel = "N", description = "AM attempts (default: the cluster's setting)")
  Integer maxAttempts;

  @Option(names = "--am-memory", paramLabel = "MB", description = "memory of the AM container (default: ${DEFAULT-VALUE})")
  int amMemory = 1024;

  @Option(names = "--keep-containers", description = "the application's running containers outlive its AM: a"
      + " restarted AM adopts the tasks they run instead of running them again")
  boolean keepContainers;

  @Option(names = "--file", paramLabel = "PATH", description = "a file every container finds in its working"
      + " directory under its name; repeatable. Every node must see PATH (a shared filesystem or this machine)")
  List<Path> files;

  @Option(names = "--archive", paramLabel = "PATH", description = "a zip, jar, tar or tar.gz every container finds"
      + " unpacked in its working directory, in a directory named as the archive; repeatable, as --file")
  List<Path> archives;

  @Option(names = "--wait", description = "follow the application until it ends; exit 0 only if it succeeded")
  boolean await;

  SubmitCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    validate();
    Map<String, LocalResource> shipped = ShippedFiles.of(files, archives);
    List<String> amCommands = amCommands(context.amClasspath());
    RmRestClient rm = rm();

    NewApplication newApp = rm.newApplication();
    String appId = newApp.applicationId();
    if (appId == null || appId.isBlank()) throw RmFailure.error("The ResourceManager gave no application-id: " + newApp);
    checkFitsCluster(newApp.maximumResourceCapability());

    rm.submit(SubmissionBody.of(appId, this, amCommands, shipped));
    out.println("Submitted application " + appId + " to queue " + queue);
    return await ? new AppWaiter(rm, out, context.pollInterval()).awaitEnd(appId) : 0;
  }

  Resource containerSize() {
    return new Resource(memory, vcores);
  }

  int maxAttempts() {
    return maxAttempts == null ? CLUSTER_DEFAULT_ATTEMPTS : maxAttempts;
  }

  private void validate() {
    if (shell.isBlank()) throw new UsageException("--shell must not be empty");
    if (queue.isBlank()) throw new UsageException("--queue must not be empty");
    atLeast("--containers", containers, 1);
    atLeast("--memory", memory, 1);
    atLeast("--vcores", vcores, 1);
    if (priority != null) atLeast("--priority", priority, 0);
    if (maxAttempts != null) atLeast("--max-attempts", maxAttempts, 1);
    atLeast("--am-memory", amMemory, 1);
  }

  private List<String> amCommands(String classpath) {
    try {
      return ShellAmSpec.commands(classpath, shell, containers, containerSize(), WORKER_PRIORITY, keepContainers);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The RM checks only the AM's size; oversized workers would fail later inside the AM. */
  private void checkFitsCluster(Resource maximum) {
    if (maximum == null) return;
    if (memory > maximum.memory() || vcores > maximum.vCores()) {
      throw RmFailure.error("Containers of " + containerSize() + " exceed the cluster's maximum of <memory:"
          + maximum.memory() + ", vCores:" + maximum.vCores() + ">");
    }
  }
}
