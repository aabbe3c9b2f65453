package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.KillAnswer;
import java.io.PrintStream;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code bobbin kill APP_ID}: asks the RM to kill the application and repeats the request while
 * the RM answers 202 (kill accepted, not complete), for a bounded time.
 */
@Command(name = "kill", header = "Kills an application, as yarn application -kill.",
    description = "Repeats the request while the RM answers that the kill is under way, for up to 30 s.")
final class KillCommand extends ClientCommand {
  @Parameters(paramLabel = "APP_ID", description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  @Option(names = "--diagnostics", paramLabel = "TEXT", description = "why, recorded with the application")
  String diagnostics;

  KillCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    return kill(rm(), applicationId(applicationId), diagnostics, context, out);
  }

  /** Kills {@code appId}, repeating while the RM answers that the kill is under way. */
  static int kill(RmRestClient rm, String appId, String diagnostics, ClientContext context, PrintStream out) {
    // Asking first tells "already KILLED" apart from "killed now": both PUTs answer {"state":"KILLED"}.
    YarnApplicationState before = rm.application(appId).state();
    if (before != null && before.isFinal()) {
      out.println("Application " + appId + " already " + before);
      return 0;
    }

    long deadline = System.nanoTime() + context.killTimeout().toNanos();
    while (true) {
      KillAnswer answer = rm.kill(appId, diagnostics);
      if (answer.isFinal()) {
        out.println(answer.state().equals("KILLED")
            ? "Killed application " + appId : "Application " + appId + " already " + answer.state());
        return 0;
      }
      if (System.nanoTime() >= deadline) {
        throw RmFailure.error("Application " + appId + " is still " + answer.state() + " after "
            + context.killTimeout().toSeconds() + " s; the kill may yet complete");
      }
      pause(context.pollInterval());
    }
  }

  private static void pause(Duration interval) {
    try {
      Thread.sleep(interval.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RmFailure.error("Interrupted while waiting for the kill to complete");
    }
  }
}
