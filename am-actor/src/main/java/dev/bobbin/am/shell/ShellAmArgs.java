package dev.bobbin.am.shell;

import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.Resource;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The distributed-shell AM's command line: what to run, how many times, in containers of what size.
 *
 * @param keepContainers a restarted AM adopts the tasks still running in containers of earlier
 *     attempts instead of running them again
 * @param shipped the local resources every container gets, by link name
 */
public record ShellAmArgs(String shell, int containers, Resource size, int priority, boolean keepContainers,
    Map<String, LocalResource> shipped) {

  public ShellAmArgs {
    if (shell == null || shell.isBlank()) throw new UsageException("--shell must not be empty");
    if (containers < 1) throw new UsageException("--containers must be at least 1, was " + containers);
    if (size == null) throw new UsageException("Missing container size");
    if (size.memory() < 1) throw new UsageException("--memory must be at least 1 MB, was " + size.memory());
    if (size.vCores() < 1) throw new UsageException("--vcores must be at least 1, was " + size.vCores());
    if (priority < 0) throw new UsageException("--priority must be >= 0, was " + priority);
    shipped = shipped == null ? Map.of() : Map.copyOf(shipped);
  }

  public ShellAmArgs(String shell, int containers, Resource size, int priority, boolean keepContainers) {
    this(shell, containers, size, priority, keepContainers, Map.of());
  }

  /** These arguments, with the containers getting {@code resources}. */
  public ShellAmArgs shipping(Map<String, LocalResource> resources) {
    return new ShellAmArgs(shell, containers, size, priority, keepContainers, resources);
  }

  public ShellAmArgs(String shell, int containers, Resource size, int priority) {
    this(shell, containers, size, priority, false);
  }

  /** @throws UsageException naming the bad or missing option */
  public static ShellAmArgs parse(String... args) {
    Line line = new Line();
    try {
      new CommandLine(line).parseArgs(args);
    } catch (ParameterException e) {
      // An unknown option, often a required one misspelt, is the mistake to name first.
      ParseResult parsed = e.getCommandLine().getParseResult();
      boolean unknown = parsed != null && !parsed.unmatched().isEmpty();
      throw new UsageException(
          unknown ? new UnmatchedArgumentException(e.getCommandLine(), parsed.unmatched()).getMessage() : e.getMessage());
    }
    return new ShellAmArgs(line.shell, line.containers, Resource.of(line.memory, line.vcores), line.priority,
        line.keepContainers);
  }

  /** The AM's usage, with every option. */
  public static String usage() {
    return new CommandLine(new Line()).getUsageMessage();
  }

  @Command(name = DistributedShellAm.NAME, description = {
      "The distributed-shell ApplicationMaster: runs CMD with bash in N containers and finishes its application"
          + " SUCCEEDED when every one exited 0.",
      "Run by a NodeManager in the AM container, whose environment names the RM and the AM token."})
  private static final class Line {
    @Option(names = "--shell", paramLabel = "CMD", required = true, description = "the command each container runs")
    String shell;

    @Option(names = "--containers", paramLabel = "N", required = true, description = "how many containers")
    int containers;

    @Option(names = "--memory", paramLabel = "MB", required = true, description = "memory per container")
    long memory;

    @Option(names = "--vcores", paramLabel = "V", required = true, description = "virtual cores per container")
    int vcores;

    @Option(names = "--priority", paramLabel = "P", description = "the containers' request priority (default: 0)")
    int priority;

    @Option(names = "--keep-containers", description = "after an AM restart, adopt the tasks still running in the"
        + " earlier attempts' containers (the application must keep containers across attempts)")
    boolean keepContainers;
  }

  /** A bad command line; the message says which option. */
  public static final class UsageException extends IllegalArgumentException {
    public UsageException(String message) {
      super(message);
    }
  }
}
