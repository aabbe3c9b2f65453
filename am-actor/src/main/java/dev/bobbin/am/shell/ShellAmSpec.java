package dev.bobbin.am.shell;

import dev.bobbin.protocol.Resource;
import java.util.List;

/** Builds the launch commands of a distributed-shell AM container, for the CLI and the quick start. */
public final class ShellAmSpec {
  private ShellAmSpec() {}

  /**
   * One command, run by the NodeManager with bash after it expands {@code {{JAVA_HOME}}}:
   * {@code {{JAVA_HOME}}/bin/java -Xmx256m -cp '<classpath>' dev.bobbin.am.shell.DistributedShellAm
   * --shell '<shellCommand>' --containers N --memory M --vcores V --priority P}. The shell command
   * is single-quoted, so the AM receives it literally and variables such as {@code $CONTAINER_ID}
   * are expanded only in the worker containers that run it.
   */
  public static List<String> commands(
      String classpath, String shellCommand, int containers, Resource size, int priority) {
    new ShellAmArgs(shellCommand, containers, size, priority); // fails early with the AM's own messages
    if (classpath == null || classpath.isBlank()) throw new IllegalArgumentException("Empty classpath");
    String command = String.join(
        " ",
        "{{JAVA_HOME}}/bin/java",
        "-Xmx256m",
        "-cp", shellQuote(classpath),
        DistributedShellAm.class.getName(),
        "--shell", shellQuote(shellCommand),
        "--containers", Integer.toString(containers),
        "--memory", Long.toString(size.memory()),
        "--vcores", Integer.toString(size.vCores()),
        "--priority", Integer.toString(priority));
    return List.of(command);
  }

  /** Quotes {@code s} as one bash word that expands to exactly {@code s}. */
  public static String shellQuote(String s) {
    if (s.indexOf('\0') >= 0) throw new IllegalArgumentException("A NUL character cannot be passed to a process");
    return "'" + s.replace("'", "'\"'\"'") + "'";
  }
}
