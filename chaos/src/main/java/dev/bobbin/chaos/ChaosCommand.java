package dev.bobbin.chaos;

import dev.bobbin.am.CommonPool;
import dev.bobbin.launcher.cli.ExitCodes;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bobbin chaos}: RM members (separate JVMs on a PostgreSQL journal this command starts),
 * NodeManagers and a stream of distributed-shell applications; members are killed, terminated and
 * paused one at a time while the invariants of design.md are checked from outside.
 */
@Command(name = "bobbin chaos",
    header = "Faults injected into RM members and NodeManagers run as processes; checks the invariants.",
    description = {
        "Starts PostgreSQL, RM members (separate JVMs, --journal postgres) and NodeManagers on 127.0.0.1,"
            + " submits distributed-shell applications, a share of them long-running services, injects faults"
            + " into random members (and, with am-kill, the services' AMs) one at a time and checks the invariants."
            + " With network faults, as root on Linux, each member runs in a network namespace of its own;"
            + " network faults that cannot be injected are skipped, and the run says why.",
        "Durations: 500ms, 20s, 5m, 1h, or a bare number of seconds."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        " 0:every invariant held",
        " 1:an invariant broke (the summary says which)",
        " 2:the cluster could not be started",
        "64:usage error (the message names the option or value)"})
public final class ChaosCommand implements Callable<Integer> {
  private static final int NOT_STARTED = 2;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
  boolean help;

  @Option(names = "--duration", paramLabel = "D", defaultValue = "60s",
      description = "how long applications are submitted, extended until every counted fault ran (default: ${DEFAULT-VALUE})")
  String duration;

  @Option(names = "--members", paramLabel = "N", defaultValue = "3", description = "RM members, 1 to 9 (default: ${DEFAULT-VALUE})")
  String members;

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "3", description = "NodeManagers, 1 to 50 (default: ${DEFAULT-VALUE})")
  String nodes;

  @Option(names = "--faults", paramLabel = "SPEC", defaultValue = "kill=1,pause=1,term=0",
      description = {"none; exact counts KIND=N,... (spread over the duration or one per --fault-interval);"
          + " or a mix drawn at every --fault-interval, K:P:T (kill:pause:term) or KIND:WEIGHT,...;"
          + " KIND: kill, pause, term; isolate, partition, loss, slow, partition-pause (root on Linux);"
          + " journal-stop, journal-freeze; am-kill (SIGKILL to a long-running application's AM)"
          + " (default: ${DEFAULT-VALUE})"})
  String faults;

  @Option(names = "--fault-interval", paramLabel = "D",
      description = "time between faults (never two at once: each waits for the last to be over); required with a mix")
  String faultInterval;

  @Option(names = "--apps-per-minute", paramLabel = "N", defaultValue = "12",
      description = "submission rate; each application: an AM and 2 containers of `sleep 2; echo ok`, longer for the"
          + " long-running share (--keep-containers-share) (default: ${DEFAULT-VALUE})")
  String appsPerMinute;

  @Option(names = "--keep-containers-share", paramLabel = "F", defaultValue = "0.25",
      description = "share of the applications, 0 to 1, that are long-running services: they keep their containers"
          + " across attempts (max-app-attempts 4), their tasks run `sleep S; echo ok` with S a third of --duration"
          + " (10 s to 60 s), and am-kill faults kill their AMs (default: ${DEFAULT-VALUE})")
  String keepContainersShare;

  @Option(names = "--seed", paramLabel = "N",
      description = "seeds fault order, member choice, submission targets and ports (default: random, printed)")
  String seed;

  @Option(names = "--work-dir", paramLabel = "DIR",
      description = "logs, data and NodeManager directories; must be empty (default: a new temporary directory, kept)")
  String workDir;

  @Option(names = "--drain", paramLabel = "D", defaultValue = "120s",
      description = "after the last submission, how long to wait for every application to end (default: ${DEFAULT-VALUE})")
  String drain;

  @Option(names = "--pause-hold", paramLabel = "D", defaultValue = "40s",
      description = "longest SIGSTOP, isolation or partition: it ends as soon as a survivor's log shows the member"
          + " downed by the split-brain resolver, at the latest after D (default: ${DEFAULT-VALUE})")
  String pauseHold;

  @Option(names = "--fault-hold", paramLabel = "D", defaultValue = "20s",
      description = "how long a lossy or slow link and a journal outage last (default: ${DEFAULT-VALUE})")
  String faultHold;

  @Option(names = "--restart-delay", paramLabel = "D", defaultValue = "5s",
      description = "a killed or terminated member is restarted on its ports D after the fault (default: ${DEFAULT-VALUE})")
  String restartDelay;

  @Option(names = "--failover-timeout", paramLabel = "D", defaultValue = "60s",
      description = "longest wait for a failover before it is recorded as timed out (default: ${DEFAULT-VALUE})")
  String failoverTimeout;

  @Option(names = "--nm-memory", paramLabel = "MB", defaultValue = "4096",
      description = "each NodeManager's memory (default: ${DEFAULT-VALUE})")
  String nmMemory;

  @Option(names = "--nm-vcores", paramLabel = "N", defaultValue = "4",
      description = "each NodeManager's virtual cores (default: ${DEFAULT-VALUE})")
  String nmVcores;

  @Option(names = "--classpath", paramLabel = "CP",
      description = "classpath of the RM, NM and AM JVMs; must hold the launcher (default: this JVM's)")
  String classpath;

  @Spec CommandSpec spec;

  private final PrintStream out;

  private ChaosCommand(PrintStream out) {
    this.out = out;
  }

  /** What {@code bin/bobbin chaos} runs, on the launcher's classpath followed by this module's. */
  public static void main(String[] argv) {
    CommonPool.ensureParallel();
    System.exit(run(Arrays.asList(argv), System.out, System.err));
  }

  /** As {@link #run(List, PrintStream, PrintStream)}, with usage errors printed to {@code out} too. */
  public static int run(List<String> args, PrintStream out) {
    return run(args, out, out);
  }

  /** @return 0 when every invariant held, 1 when one broke, 2 when the cluster did not start, 64 on a usage error */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    return ExitCodes.configure(new CommandLine(new ChaosCommand(out)), out, err).execute(args.toArray(String[]::new));
  }

  /** The command with {@code args} parsed into it, not yet validated. */
  static ChaosCommand parsed(List<String> args) {
    return ExitCodes.parse(new ChaosCommand(null), args, ChaosUsageException::new);
  }

  @Override
  public Integer call() {
    ChaosOptions options = ChaosOptions.of(this);
    try {
      ChaosReport report = new ChaosRun(options, out).run();
      report.print(out);
      return report.exitCode();
    } catch (IOException e) {
      spec.commandLine().getErr().println("bobbin chaos: " + e);
      return NOT_STARTED;
    }
  }
}
