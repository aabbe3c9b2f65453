package dev.bobbin.launcher;

import dev.bobbin.am.CommonPool;
import dev.bobbin.launcher.cli.ClientCommands;
import dev.bobbin.launcher.cli.ClientContext;
import dev.bobbin.launcher.cli.ExitCodes;
import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.tls.TlsStoreException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/** The {@code bobbin} command. */
@Command(name = "bobbin",
    description = "A cluster resource manager in the mould of Apache Hadoop YARN, on Apache Pekko.",
    synopsisSubcommandLabel = "COMMAND",
    exitCodeListHeading = "%nExit codes:%n",
    footer = {"", "Client commands (submit, status, kill, app, apps, nodes, logs, admin, cluster) take --rm and --user, or --token-file"
        + " (default $BOBBIN_TOKEN) for a bearer token; --rm defaults to $BOBBIN_RM, else http://127.0.0.1:8088.",
        "Run 'bobbin COMMAND --help' for a command's options; 'bobbin completion' prints a bash completion script."})
public final class Main implements Callable<Integer> {
  private static final String[] HELP = {"-h", "--help"};

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
  boolean help;

  @Spec CommandSpec spec;

  public static void main(String[] argv) {
    CommonPool.ensureParallel();
    ClientContext context;
    try {
      context = ClientContext.system();
    } catch (TlsStoreException e) {
      System.err.println("bobbin: bad setting $" + ContainerEnv.TLS_TRUST_STORE + ": " + e.getMessage());
      System.exit(ExitCodes.BAD_SETTING);
      return;
    }
    System.exit(run(Arrays.asList(argv), System.out, System.err, context));
  }

  /** @return the process exit code: 0 ok, 1 refused by the RM, 2 RM unreachable, 64 usage error, 78 bad setting */
  public static int run(List<String> argv, PrintStream out, PrintStream err, ClientContext context) {
    return commandLine(out, err, context).execute(argv.toArray(String[]::new));
  }

  static CommandLine commandLine(PrintStream out, PrintStream err, ClientContext context) {
    CommandLine root = new CommandLine(new Main())
        .addSubcommand(new QuickstartCommand(out))
        .addSubcommand(new RmCommand(out))
        .addSubcommand(new NmCommand(out));
    ClientCommands.addTo(root, context, out);
    root.addSubcommand(new ToolCommand.Chaos())
        .addSubcommand(new ToolCommand.Bench())
        .addSubcommand(new CompletionCommand())
        .addSubcommand(new CommandLine.HelpCommand());
    root.getCommandSpec().usageMessage().exitCodeList(ExitCodes.described());
    root.getSubcommands().get("help").getCommandSpec().usageMessage().synopsisHeading("Usage: ");
    addHelpOption(root);
    return ExitCodes.configure(root, out, err);
  }

  /** Every command answers --help (the help command has its own). */
  private static void addHelpOption(CommandLine command) {
    for (CommandLine sub : command.getSubcommands().values()) {
      CommandSpec spec = sub.getCommandSpec();
      if (spec.findOption("--help") == null) {
        spec.addOption(OptionSpec.builder(HELP).usageHelp(true).description("show this help and exit").build());
      }
      addHelpOption(sub);
    }
  }

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "Missing command");
  }
}
