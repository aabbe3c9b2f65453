package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.time.Duration;

/** Follows an application until it reaches a final state, printing each state it passes through. */
final class AppWaiter {
  private final RmClient rm;
  private final PrintStream out;
  private final Duration pollInterval;

  AppWaiter(RmClient rm, PrintStream out, Duration pollInterval) {
    this.rm = rm;
    this.out = out;
    this.pollInterval = pollInterval;
  }

  /** @return 0 if the application FINISHED with SUCCEEDED, else 1 */
  int awaitEnd(String appId) {
    String lastState = null;
    while (true) {
      JsonNode app = YarnJson.unwrap(rm.get(AppPaths.app(appId)).json(), "app");
      String state = YarnJson.text(app, "state", "UNKNOWN");
      if (!state.equals(lastState)) {
        out.println("Application " + appId + " is " + state);
        lastState = state;
      }
      if (AppPaths.FINAL_STATES.contains(state)) return reportEnd(appId, app, state);
      pause();
    }
  }

  private int reportEnd(String appId, JsonNode app, String state) {
    String finalStatus = YarnJson.text(app, "finalStatus", "UNDEFINED");
    out.println("Application " + appId + " ended: state " + state + ", final status " + finalStatus);
    String diagnostics = YarnJson.text(app, "diagnostics", "");
    if (!diagnostics.isBlank()) out.println("Diagnostics: " + diagnostics.strip());
    return "FINISHED".equals(state) && "SUCCEEDED".equals(finalStatus) ? 0 : RmFailure.RM_ERROR;
  }

  private void pause() {
    try {
      Thread.sleep(pollInterval.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw RmFailure.error("Interrupted while waiting for the application");
    }
  }
}
