package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bobbin.protocol.WireJson;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Set;

/**
 * {@code bobbin kill APP_ID}: asks the RM to kill the application and repeats the request while
 * the RM answers 202 (kill accepted, not complete), for a bounded time.
 */
final class KillCommand implements ClientCommand {
  @Override
  public String usage() {
    return "usage: bobbin kill APP_ID [--diagnostics TEXT] [--rm URL[,URL...]] [--user NAME]\n";
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of("--diagnostics");
  }

  @Override
  public int run(CommandLine line, ClientContext context, PrintStream out) {
    String appId = line.applicationId();
    RmClient rm = RmClient.from(line, context);
    // Asking first tells "already KILLED" apart from "killed now": both PUTs answer {"state":"KILLED"}.
    String before = YarnJson.text(YarnJson.unwrap(rm.get(AppPaths.app(appId)).json(), "app"), "state", "");
    if (AppPaths.FINAL_STATES.contains(before)) {
      out.println("Application " + appId + " already " + before);
      return 0;
    }
    ObjectNode body = WireJson.mapper().createObjectNode().put("state", "KILLED");
    line.value("--diagnostics").ifPresent(d -> body.put("diagnostics", d));

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
