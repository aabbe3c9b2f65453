package dev.bobbin.bench;

import dev.bobbin.launcher.cli.ExitCodes;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The command line of {@code bobbin bench}; {@link BenchOptions#of} validates what it holds. The sizes
 * are text here so that a bad one is refused with a message that says what it must be.
 */
@Command(name = "bobbin bench",
    header = "The real RM against simulated NodeManagers and AMs; writes the figures to a file.",
    description = {
        "Runs the real RM (entities, scheduler, journal) against simulated NodeManagers and ApplicationMasters on"
            + " 127.0.0.1, prints each scenario's figures and writes them, with the machine, the command and the"
            + " date, as the scenario's section of the results file (a section a later run of the scenario replaces).",
        "Sizes left out take each scenario's defaults, smaller with --quick."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {" 0:every scenario ran", " 1:a scenario failed", "64:usage error (the message names the option or value)"})
final class BenchCommand implements Callable<Integer> {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
  boolean help;

  @Parameters(index = "0", paramLabel = "SCENARIO", completionCandidates = Scenarios.class,
      description = "one of ${COMPLETION-CANDIDATES}")
  String scenario;

  @Option(names = "--nodes", paramLabel = "N", description = "simulated NodeManagers")
  String nodes;

  @Option(names = "--apps", paramLabel = "N", description = "applications")
  String apps;

  @Option(names = "--containers", paramLabel = "N", description = "containers")
  String containers;

  @Option(names = "--shape", paramLabel = "1|5|25",
      description = "the scheduler scenario: how many applications share the demand (default: all three)")
  String shape;

  @Option(names = "--policy", paramLabel = "fifo|fair|capacity",
      description = "the scheduling policy (default: the scenario's; capacity for the scheduler scenario only)")
  String policy;

  @Option(names = "--duration", paramLabel = "D", description = "how long each measurement runs: 30s, 2m, 500ms")
  String duration;

  @Option(names = "--quick", description = "smaller, shorter runs: a smoke test, not a measurement")
  boolean quick;

  @Option(names = "--jfr", description = "record the measured JVM with Java Flight Recorder and summarize its hot methods")
  boolean jfr;

  @Option(names = "--journal", paramLabel = "embedded|postgres",
      description = "the full-path and submissions scenarios: the RM's journal (default: embedded; postgres is started for the run)")
  String journal;

  @Option(names = "--clients", paramLabel = "N", description = "the submissions scenario: concurrent clients (default: 16, 4 with --quick)")
  String clients;

  @Option(names = "--queues", paramLabel = "N",
      description = "the submissions scenario: how many of its " + Topology.QUEUES + " queues it submits to (default: all)")
  String queues;

  @Option(names = "--auth", paramLabel = "simple|token",
      description = "how the clients authenticate to the RM: user.name (default), or a signed bearer token")
  String auth;

  @Option(names = "--out", paramLabel = "FILE",
      description = {"the results file; by default, under the working directory:", BenchOptions.DEFAULT_OUT})
  Path out;

  @Option(names = "--no-write", description = "print the figures only")
  boolean noWrite;

  @Spec CommandSpec spec;

  private final PrintStream printed;

  BenchCommand(PrintStream printed) {
    this.printed = printed;
  }

  /** @return 0 on success, 64 on a usage error, 1 when a scenario failed */
  static int run(List<String> args, PrintStream out, PrintStream err) {
    List<String> argv = args.equals(List.of("help")) ? List.of("--help") : args;
    return ExitCodes.configure(new CommandLine(new BenchCommand(out)), out, err).execute(argv.toArray(String[]::new));
  }

  /** The command with {@code args} parsed into it, not yet validated. */
  static BenchCommand parsed(List<String> args) {
    return ExitCodes.parse(new BenchCommand(null), args, BenchOptions.UsageException::new);
  }

  @Override
  public Integer call() {
    List<String> args = spec.commandLine().getParseResult().originalArgs();
    return BenchMain.runScenarios(BenchOptions.of(this, args), printed);
  }


  static final class Scenarios extends ArrayList<String> {
    Scenarios() {
      super(BenchOptions.SCENARIOS);
      add("all");
    }
  }
}
