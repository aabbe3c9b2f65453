package dev.bobbin.chaos;

import dev.bobbin.am.CommonPool;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bobbin chaos}: the chaos suite of issue 4. Three RM members (separate JVMs on a
 * PostgreSQL journal this command starts), NodeManagers and a stream of distributed-shell
 * applications; members are killed, terminated and paused one at a time while the invariants of
 * design.md are checked from outside. See {@link ChaosOptions#USAGE}.
 */
public final class ChaosCommand {
  public static final String USAGE = ChaosOptions.USAGE;

  private ChaosCommand() {}

  /** What {@code bin/bobbin chaos} runs, on the launcher's classpath followed by this module's. */
  public static void main(String[] argv) {
    CommonPool.ensureParallel();
    System.exit(run(Arrays.asList(argv), System.out));
  }

  /** @return 0 when every invariant held, 1 when one broke, 2 when the cluster did not start, 64 on a usage error */
  public static int run(List<String> args, PrintStream out) {
    if (args.contains("--help") || args.contains("-h")) {
      out.println(USAGE);
      return 0;
    }
    try {
      ChaosReport report = new ChaosRun(ChaosOptions.parse(args), out).run();
      report.print(out);
      return report.exitCode();
    } catch (ChaosUsageException e) {
      out.println("bobbin chaos: " + e.getMessage() + "\n\n" + USAGE);
      return 64;
    } catch (IOException e) {
      out.println("bobbin chaos: " + e);
      return 2;
    }
  }
}
