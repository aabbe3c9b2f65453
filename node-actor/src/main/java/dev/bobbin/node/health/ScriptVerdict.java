package dev.bobbin.node.health;

/**
 * What a run of the health script says of the node, as YARN's NodeHealthScriptRunner reads it: a
 * line of output starting with {@code ERROR}, a timeout, or a script that cannot run make the node
 * unhealthy. A script that exits non-zero is taken to be broken rather than to report on the node:
 * its output is ignored and the node stays healthy.
 */
public final class ScriptVerdict {
  static final String ERROR_PREFIX = "ERROR";
  /** Reports travel with every heartbeat; a script that writes pages of output is cut here. */
  static final int MAX_REPORT_CHARS = 4096;

  private ScriptVerdict() {}

  public static NodeHealth judge(String script, ScriptOutcome outcome, long now) {
    if (outcome instanceof ScriptOutcome.TimedOut t) {
      return NodeHealth.unhealthy("Health script " + script + " timed out after " + t.timeoutMs() + " ms", now);
    }
    if (outcome instanceof ScriptOutcome.Failed f) {
      return NodeHealth.unhealthy("Health script " + script + " could not run: " + f.error(), now);
    }
    ScriptOutcome.Exited exited = (ScriptOutcome.Exited) outcome;
    if (exited.exitCode() != 0 || !reportsError(exited.output())) return NodeHealth.healthy(now);
    return NodeHealth.unhealthy(shortened(exited.output().strip()), now);
  }

  static boolean reportsError(String output) {
    return output.lines().anyMatch(line -> line.startsWith(ERROR_PREFIX));
  }

  private static String shortened(String report) {
    if (report.length() <= MAX_REPORT_CHARS) return report;
    return report.substring(0, MAX_REPORT_CHARS) + " ... (" + (report.length() - MAX_REPORT_CHARS) + " more characters)";
  }
}
