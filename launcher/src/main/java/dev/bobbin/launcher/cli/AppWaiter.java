package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppInfo;
import java.io.PrintStream;
import java.time.Duration;

/** Follows an application until it reaches a final state, printing each state it passes through. */
final class AppWaiter {
  private final RmRestClient rm;
  private final PrintStream out;
  private final Duration pollInterval;

  AppWaiter(RmRestClient rm, PrintStream out, Duration pollInterval) {
    this.rm = rm;
    this.out = out;
    this.pollInterval = pollInterval;
  }

  /** @return 0 if the application FINISHED with SUCCEEDED, else 1 */
  int awaitEnd(String appId) {
    YarnApplicationState lastState = null;
    String lastProgress = null;
    while (true) {
      AppInfo app = rm.application(appId);
      YarnApplicationState state = app.state();
      if (state != lastState) {
        out.println("Application " + appId + " is " + (state == null ? "UNKNOWN" : state));
        lastState = state;
      }
      String progress = Formats.progress(app.progress());
      if (state == YarnApplicationState.RUNNING && app.progress() > 0 && !progress.equals(lastProgress)) {
        out.println("Application " + appId + " progress " + progress);
        lastProgress = progress;
      }
      if (state != null && state.isFinal()) return reportEnd(appId, app);
      pause();
    }
  }

  private int reportEnd(String appId, AppInfo app) {
    FinalApplicationStatus finalStatus = app.finalStatus() == null ? FinalApplicationStatus.UNDEFINED : app.finalStatus();
    out.println("Application " + appId + " ended: state " + app.state() + ", final status " + finalStatus);
    String diagnostics = app.diagnostics() == null ? "" : app.diagnostics();
    if (!diagnostics.isBlank()) out.println("Diagnostics: " + diagnostics.strip());
    return app.state() == YarnApplicationState.FINISHED && finalStatus == FinalApplicationStatus.SUCCEEDED
        ? 0 : RmFailure.RM_ERROR;
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
