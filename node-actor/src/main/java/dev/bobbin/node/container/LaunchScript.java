package dev.bobbin.node.container;

import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Turns a launch context into a {@link LaunchSpec} and the text of {@code launch_container.sh}. */
public final class LaunchScript {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z_][A-Za-z0-9_]*)}}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private LaunchScript() {}

  /** What the node tells every container about itself. */
  public record NodeFacts(String host, int port, String javaHome, List<String> rmAddresses) {}

  /**
   * @param inherited the NodeManager's own environment, which the process inherits; it resolves
   *     placeholders the container's environment does not define
   * @throws IllegalArgumentException when an environment name cannot be exported by a shell
   */
  public static LaunchSpec plan(
      String containerId, String applicationId, String user, Resource resource, ContainerLaunchContext context,
      ContainerLayout.Dirs dirs, NodeFacts node, Map<String, String> inherited) {
    Map<String, String> raw = new TreeMap<>(context.environment());
    for (String name : raw.keySet()) {
      if (!ENV_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("Invalid environment variable name: '" + name + "'");
      }
    }
    raw.putIfAbsent(ContainerEnv.JAVA_HOME, node.javaHome());
    raw.putIfAbsent(ContainerEnv.RM_ADDRESSES, String.join(",", node.rmAddresses()));
    // The NodeManager's own facts win over whatever the launch context claims.
    raw.put(ContainerEnv.CONTAINER_ID, containerId);
    raw.put(ContainerEnv.APPLICATION_ID, applicationId);
    raw.put(ContainerEnv.NM_HOST, node.host());
    raw.put(ContainerEnv.NM_PORT, Integer.toString(node.port()));
    raw.put(ContainerEnv.NM_HTTP_PORT, Integer.toString(node.port()));
    raw.put(ContainerEnv.LOCAL_DIRS, dirs.appLocalDir().toString());
    raw.put(ContainerEnv.LOG_DIRS, dirs.logDir().toString());
    raw.put(ContainerEnv.USER, user);
    raw.put(ContainerEnv.PWD, dirs.workDir().toString());

    Map<String, String> env = new TreeMap<>();
    raw.forEach((k, v) -> env.put(k, expand(v, raw, inherited, dirs.logDir())));
    List<String> commands = context.commands().stream().map(c -> expand(c, raw, inherited, dirs.logDir())).toList();
    return new LaunchSpec(containerId, applicationId, user, resource, env, commands, dirs.workDir(), dirs.logDir());
  }

  /** YARN's placeholders: {@code {{VAR}}}, {@code <LOG_DIR>} and {@code <CPS>}. Unknown variables expand to "". */
  static String expand(String text, Map<String, String> env, Map<String, String> inherited, Path logDir) {
    if (text == null) return "";
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = env.getOrDefault(name, inherited.getOrDefault(name, ""));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString().replace("<LOG_DIR>", logDir.toString()).replace("<CPS>", ":");
  }

  /**
   * The script runs the commands in a subshell and outlives them, so that it records how they
   * ended even when the last one {@code exec}s or a SIGTERM to the container's process group ends
   * them (its own SIGTERM waits for theirs, and a subshell's signals are the defaults again). The
   * pid and exit code files ({@link ProcessFiles}) are written under a temporary name and renamed
   * with the shell's own {@code mv}, whatever PATH the container set.
   */
  public static String render(LaunchSpec spec) {
    StringBuilder s = new StringBuilder("#!/bin/bash\n");
    s.append("# Written by the Bobbin NodeManager for ").append(spec.containerId()).append('\n');
    spec.environment().forEach((k, v) -> s.append("export ").append(k).append('=').append(shellQuote(v)).append('\n'));
    s.append("cd ").append(shellQuote(spec.workDir().toString())).append('\n');
    s.append(writeWhole("$$", ProcessFiles.pidFile(spec.workDir(), spec.containerId())));
    s.append("trap : TERM\n");
    s.append("(\n").append(String.join(" && ", spec.commands())).append("\n)\n");
    s.append("rc=$?\n");
    s.append(writeWhole("$rc", ProcessFiles.exitCodeFile(spec.workDir(), spec.containerId())));
    s.append("exit $rc\n");
    return s.toString();
  }

  private static String writeWhole(String value, Path file) {
    String target = shellQuote(file.toString());
    String tmp = shellQuote(file + ".tmp");
    return "echo \"" + value + "\" > " + tmp + " && command -p mv -f " + tmp + " " + target + "\n";
  }

  static String shellQuote(String v) {
    return "'" + v.replace("'", "'\\''") + "'";
  }
}
