package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.Ids;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin applicationattempt}: {@code yarn applicationattempt -list|-status}. */
@Command(name = "applicationattempt", header = "Lists and reports on application attempts, as yarn applicationattempt.",
    description = "-list APP_ID: the application's attempts; -status ATTEMPT_ID: one attempt's report.")
final class AttemptVerb extends YarnVerb {
  @Option(names = "-list", paramLabel = "APP_ID", description = "an application's attempts") String list;
  @Option(names = "-status", paramLabel = "ATTEMPT_ID", description = "one attempt's report") String status;

  AttemptVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    return action(actions("-list", list, "-status", status)).equals("-list") ? list(applicationId(list))
        : status(attemptId(status));
  }

  static String attemptId(String id) {
    if (!Ids.isAttemptId(id)) {
      throw new UsageException("Invalid attempt id '" + id + "', expected appattempt_<clusterTimestamp>_<app>_<attempt>");
    }
    return id;
  }

  private JsonNode attempts(String appId) {
    return rm().read("/apps/" + appId + "/appattempts", Map.of());
  }

  private int list(String appId) {
    JsonNode answer = attempts(appId);
    if (json()) return printJson(answer);
    List<JsonNode> attempts = elements(answer, "appAttempts", "appAttempt");
    out.println("Total number of application attempts :" + attempts.size());
    // The AM container's id is in -status: with it, a row would not fit 80 columns.
    TextTable table = new TextTable("ApplicationAttempt-Id", "State", "AM-Node");
    for (JsonNode a : attempts) {
      table.row(text(a, "appAttemptId"), orNa(a, "appAttemptState"),
          Formats.orNotAvailable(firstNonBlank(text(a, "nodeId"), text(a, "nodeHttpAddress"))));
    }
    table.print(out, TERMINAL_WIDTH, 2);
    return 0;
  }

  private int status(String attemptId) {
    JsonNode attempt = elements(attempts(Ids.applicationIdOfAttempt(attemptId)), "appAttempts", "appAttempt").stream()
        .filter(a -> attemptId.equals(text(a, "appAttemptId"))).findFirst()
        .orElseThrow(() -> RmFailure.error("Application attempt " + attemptId + " not found"));
    if (json()) return printJson(attempt);
    out.println("Application Attempt Report : ");
    field("ApplicationAttempt-Id", attemptId);
    field("State", orNa(attempt, "appAttemptState"));
    field("AMContainer", orNa(attempt, "containerId"));
    field("Node", Formats.orNotAvailable(firstNonBlank(text(attempt, "nodeId"), text(attempt, "nodeHttpAddress"))));
    field("Start-Time", Formats.time(attempt.path("startTime").asLong()));
    field("Finish-Time", Formats.time(attempt.path("finishedTime").asLong()));
    field("Logs-Link", orNa(attempt, "logsLink"));
    field("Diagnostics", text(attempt, "diagnosticsInfo"));
    return 0;
  }

  static String firstNonBlank(String a, String b) {
    return a.isBlank() ? b : a;
  }
}
