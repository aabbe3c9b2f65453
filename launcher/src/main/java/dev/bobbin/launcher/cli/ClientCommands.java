package dev.bobbin.launcher.cli;

import java.io.PrintStream;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client half of the {@code bobbin} CLI: {@code submit}, {@code status}, {@code kill},
 * {@code apps} and {@code nodes}, all talking to the ResourceManager's YARN REST API.
 *
 * <p>Exit codes: 0 success, 1 the RM answered with an error (or a waited-for application did not
 * succeed), 2 the RM could not be reached, 64 bad usage.
 */
public final class ClientCommands {
  public static final int OK = 0;
  public static final int USAGE = 64;

  private static final Set<String> COMMON_VALUED = Set.of("--rm", "--user");
  private static final Set<String> HELP = Set.of("--help", "-h");
  private static final Map<String, ClientCommand> COMMANDS = Map.of(
      "submit", new SubmitCommand(),
      "status", new StatusCommand(),
      "kill", new KillCommand(),
      "apps", new AppsCommand(),
      "nodes", new NodesCommand(),
      "admin", new AdminCommand());

  private ClientCommands() {}

  /** True for the command names {@link #run} understands. */
  public static boolean handles(String command) {
    return COMMANDS.containsKey(command);
  }

  /** @return the process exit code */
  public static int run(String command, List<String> args, PrintStream out, PrintStream err) {
    return run(command, args, out, err, ClientContext.system());
  }

  static int run(String command, List<String> args, PrintStream out, PrintStream err, ClientContext context) {
    ClientCommand cmd = COMMANDS.get(command);
    if (cmd == null) {
      err.println("Unknown command '" + command + "'");
      err.print(usage());
      return USAGE;
    }
    try {
      CommandLine line = CommandLine.parse(args, union(cmd.valuedOptions(), COMMON_VALUED), union(cmd.switches(), HELP));
      if (line.has("--help") || line.has("-h")) {
        out.print(cmd.usage());
        return OK;
      }
      return cmd.run(line, context, out);
    } catch (UsageException e) {
      err.println(e.getMessage());
      err.print(cmd.usage());
      return USAGE;
    } catch (RmFailure e) {
      err.println(e.getMessage());
      return e.exitCode();
    }
  }

  /** The client commands, for the main help. */
  public static String usage() {
    return """
        Client commands:
          submit --shell CMD [options]   run a shell command in containers (distributed shell)
          status APP_ID                  show an application and its attempts
          kill APP_ID                    kill an application
          apps [--states S] [--queue Q] [--user U]
                                         list applications
          nodes [--states S]             list NodeManagers
          admin refresh-queues           reload the Fair scheduler's queues
        Common options:
          --rm URL[,URL...]   ResourceManager address(es), tried in order
                              (default $BOBBIN_RM, else http://127.0.0.1:8088)
          --user NAME         user to act as (default: the OS user)
        Run 'bobbin <command> --help' for a command's options.
        """;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new HashSet<>(a);
    out.addAll(b);
    return out;
  }
}
