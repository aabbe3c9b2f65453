package dev.bobbin.am.shell;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;

/** Builds the launch commands of a distributed-shell AM container, for the CLI and the quick start. */
public final class ShellAmSpec {
  static final String LOGBACK = "bobbin-am-logback.xml";

  private ShellAmSpec() {}

  /**
   * The AM coordinates and waits. C2's compilations and G1's threads cost it more CPU than its work
   * does, and a busy host then starts it seconds later; C1 alone and the serial collector do not.
   */
  static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  /** As {@link #commands(String, List, String, int, Resource, int)}, with this JVM's archive, if any. */
  public static List<String> commands(
      String classpath, String shellCommand, int containers, Resource size, int priority) {
    return commands(classpath, ClassDataSharing.options(), shellCommand, containers, size, priority);
  }

  /**
   * One command, which the NodeManager expands ({@code {{VAR}}}, {@code <LOG_DIR>}, {@code <CPS>})
   * and runs with bash: {@code {{JAVA_HOME}}/bin/java <JVM_OPTIONS> <jvmOptions> -cp '<classpath>'
   * dev.bobbin.am.shell.DistributedShellAm --shell '<shellCommand>' --containers N --memory M
   * --vcores V --priority P}. The classpath may use the NM's placeholders; the shell command
   * reaches the AM literally, so {@code $CONTAINER_ID} or {@code {{PWD}}} in it are expanded only in
   * the worker containers that run it.
   */
  public static List<String> commands(String classpath, List<String> jvmOptions, String shellCommand,
      int containers, Resource size, int priority) {
    return commands(classpath, jvmOptions, shellCommand, containers, size, priority, false);
  }

  /** The same, for an AM that adopts earlier attempts' running tasks ({@code --keep-containers}) if {@code keep}. */
  public static List<String> commands(String classpath, String shellCommand, int containers, Resource size,
      int priority, boolean keep) {
    return commands(classpath, ClassDataSharing.options(), shellCommand, containers, size, priority, keep);
  }

  static List<String> commands(String classpath, List<String> jvmOptions, String shellCommand,
      int containers, Resource size, int priority, boolean keep) {
    new ShellAmArgs(shellCommand, containers, size, priority, keep); // fails early with the AM's own messages
    if (classpath == null || classpath.isBlank()) throw new IllegalArgumentException("Empty classpath");
    List<String> words = new ArrayList<>();
    words.add("{{JAVA_HOME}}/bin/java");
    words.addAll(JVM_OPTIONS);
    jvmOptions.forEach(option -> words.add(literalQuote(option)));
    words.addAll(List.of(
        // A library jar must not ship logback.xml; the AM names its own configuration.
        "-Dlogback.configurationFile=" + LOGBACK,
        "-cp", shellQuote(classpath),
        DistributedShellAm.class.getName(),
        "--shell", literalQuote(shellCommand),
        "--containers", Integer.toString(containers),
        "--memory", Long.toString(size.memory()),
        "--vcores", Integer.toString(size.vCores()),
        "--priority", Integer.toString(priority)));
    if (keep) words.add("--keep-containers");
    String command = String.join(" ", words);
    return List.of(command);
  }

  /** Quotes {@code s} as one bash word that expands to exactly {@code s}. */
  public static String shellQuote(String s) {
    if (s.indexOf('\0') >= 0) throw new IllegalArgumentException("A NUL character cannot be passed to a process");
    return "'" + s.replace("'", "'\"'\"'") + "'";
  }

  /**
   * Like {@link #shellQuote}, and also hidden from the NodeManager's placeholder expansion: an
   * empty {@code ''} after every '{' and '<' breaks {@code {{VAR}}} and {@code <LOG_DIR>} apart in
   * the command text, while bash still joins the pieces back into {@code s}.
   */
  public static String literalQuote(String s) {
    return shellQuote(s).replace("{", "{''").replace("<", "<''");
  }
}
