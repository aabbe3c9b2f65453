package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.protocol.WireJson;
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
    String appId = applicationId(applicationId);
    RmClient rm = rm();
    // Asking first tells "already KILLED" apart from "killed now": both PUTs answer {"state":"KILLED"}.
    String before = YarnJson.text(YarnJson.unwrap(rm.get(AppPaths.app(appId)).json(), "app"), "state", "");
    if (AppPaths.FINAL_STATES.contains(before)) {
      out.println("Application " + appId + " already " + before);
      return 0;
    }
    ObjectNode body = WireJson.mapper().createObjectNode().put("state", "KILLED");
    if (diagnostics != null) body.put("diagnostics", diagnostics);

    long deadline = System.nanoTime() + context.killTimeout().toNanos();
    while (true) {
      RmResponse response = rm.write("PUT", AppPaths.state(appId), body);
      String state = YarnJson.text(response.json(), "state", "");
      boolean pending = response.status() == 202 || !AppPaths.FINAL_STATES.contains(state);
      if (!pending) {
        out.println(state.equals("KILLED") ? "Killed application " + appId : "Application " + appId + " already " + state);
        return 0;
      }
      if (System.nanoTime() >= deadline) {
        throw RmFailure.error("Application " + appId + " is still " + state + " after "
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
