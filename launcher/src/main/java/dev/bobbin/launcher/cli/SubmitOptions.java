package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.Resource;
import java.util.Set;

/** The options of {@code bobbin submit}, validated. */
record SubmitOptions(
    String shell,
    int containers,
    Resource containerSize,
    String queue,
    String name,
    int priority,
    int maxAttempts,
    long amMemory,
    boolean await) {

  static final Set<String> VALUED = Set.of(
      "--shell", "--containers", "--memory", "--vcores", "--queue", "--name", "--priority",
      "--max-attempts", "--am-memory");
  static final Set<String> SWITCHES = Set.of("--wait");
  static final String DEFAULT_NAME = "DistributedShell";
  /** 0 lets the RM apply {@code yarn.resourcemanager.am.max-attempts}. */
  static final int CLUSTER_DEFAULT_ATTEMPTS = 0;

  static SubmitOptions parse(CommandLine line) {
    line.requireNoPositionals();
    String shell = line.value("--shell").orElseThrow(() -> new UsageException("Missing --shell"));
    if (shell.isBlank()) throw new UsageException("--shell must not be empty");
    String queue = line.value("--queue", "default");
    if (queue.isBlank()) throw new UsageException("--queue must not be empty");
    return new SubmitOptions(
        shell,
        line.intValue("--containers", 1, 1),
        new Resource(line.intValue("--memory", 1024, 1), line.intValue("--vcores", 1, 1)),
        queue,
        line.value("--name", DEFAULT_NAME),
        line.intValue("--priority", 0, 0),
        line.intValue("--max-attempts", CLUSTER_DEFAULT_ATTEMPTS, 1),
        line.intValue("--am-memory", 1024, 1),
        line.has("--wait"));
  }
}
