package dev.bobbin.launcher;

import dev.bobbin.am.CommonPool;
import dev.bobbin.config.SettingsException;
import dev.bobbin.launcher.cli.ClientCommands;
import java.util.Arrays;
import java.util.List;

/** The {@code bobbin} command. */
public final class Main {
  private Main() {}

  public static void main(String[] argv) {
    CommonPool.ensureParallel();
    System.exit(run(Arrays.asList(argv)));
  }

  static int run(List<String> argv) {
    if (argv.isEmpty() || argv.get(0).equals("help") || argv.get(0).equals("--help")) {
      System.out.println(usage());
      return argv.isEmpty() ? 64 : 0;
    }
    String command = argv.get(0);
    List<String> args = argv.subList(1, argv.size());
    try {
      return switch (command) {
        case "quickstart" -> QuickstartCommand.run(args, System.out);
        case "rm" -> RmCommand.run(args);
        case "nm" -> NmCommand.run(args);
        case "submit", "status", "kill", "apps", "nodes", "admin" ->
            ClientCommands.run(command, args, System.out, System.err);
        default -> {
          System.err.println("bobbin: unknown command '" + command + "'\n\n" + usage());
          yield 64;
        }
      };
    } catch (Options.UsageException e) {
      System.err.println("bobbin " + command + ": " + e.getMessage() + "\n\n" + usage());
      return 64;
    } catch (SettingsException e) {
      System.err.println("bobbin " + command + ": bad setting " + e.getMessage());
      return 78;
    } catch (Exception e) {
      System.err.println("bobbin " + command + ": " + e);
      return 1;
    }
  }

  static String usage() {
    return String.join("\n",
        "Usage: bobbin COMMAND [options]",
        "",
        "  bobbin quickstart [--keep]   one RM member and two NodeManagers on this machine; runs a",
        "                               distributed-shell application and prints its output",
        RmCommand.USAGE,
        NmCommand.USAGE,
        "  bobbin chaos [options]       RM members, NodeManagers and PostgreSQL as processes, with faults",
        "                               injected; checks the invariants (bobbin chaos --help)",
        ClientCommands.usage());
  }
}
