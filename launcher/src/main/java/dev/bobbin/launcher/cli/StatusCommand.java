package dev.bobbin.launcher.cli;

import static dev.bobbin.launcher.cli.Formats.orNotAvailable;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code bobbin status APP_ID}: the application report and its attempts. */
@Command(name = "status", header = "Shows an application, its attempts and its preemptions, as yarn application -status.")
final class StatusCommand extends ClientCommand {
  @Parameters(paramLabel = "APP_ID", description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  StatusCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String appId = applicationId(applicationId);
    RmClient rm = rm();
    JsonNode app = YarnJson.unwrap(rm.get(AppPaths.app(appId)).json(), "app");
    List<JsonNode> attempts = YarnJson.elements(rm.get(AppPaths.attempts(appId)).json(), "appAttempts", "appAttempt");
    printReport(app, out);
    printAttempts(attempts, out);
    printPreemptions(app, out);
    return 0;
  }

  /** Bobbin's own fields: every preemption this application suffered or caused, with its reason. */
  private static void printPreemptions(JsonNode app, PrintStream out) {
    long am = YarnJson.number(app, "numAMContainerPreempted", 0);
    long other = YarnJson.number(app, "numNonAMContainerPreempted", 0);
    List<JsonNode> suffered = YarnJson.elements(app, "preemptionsSuffered", "preemption");
    List<JsonNode> caused = YarnJson.elements(app, "preemptionsCaused", "preemption");
    if (am + other == 0 && caused.isEmpty()) return;
    out.println("Preemptions: " + (am + other) + " containers lost (" + am + " AM), "
        + YarnJson.number(app, "preemptedResourceMB", 0) + " MB; " + caused.size() + " recent gained");
    for (JsonNode p : suffered) {
      out.println("  lost   " + YarnJson.text(p, "containerId", "") + " to " + YarnJson.text(p, "starvedAppId", "")
          + ": " + YarnJson.text(p, "reason", ""));
    }
    for (JsonNode p : caused) {
      out.println("  gained " + YarnJson.text(p, "containerId", "") + " from " + YarnJson.text(p, "victimAppId", "")
          + ": " + YarnJson.text(p, "reason", ""));
    }
  }

  private static void printReport(JsonNode app, PrintStream out) {
    out.println("Application Report:");
    field(out, "Application-Id", YarnJson.text(app, "id", ""));
    field(out, "Application-Name", YarnJson.text(app, "name", ""));
    field(out, "Application-Type", YarnJson.text(app, "applicationType", ""));
    field(out, "User", YarnJson.text(app, "user", ""));
    field(out, "Queue", YarnJson.text(app, "queue", ""));
    field(out, "State", YarnJson.text(app, "state", ""));
    field(out, "Final-Status", YarnJson.text(app, "finalStatus", ""));
    field(out, "Progress", Formats.progress(app));
    field(out, "Start-Time", Formats.time(YarnJson.number(app, "startedTime", 0)));
    field(out, "Finish-Time", Formats.time(YarnJson.number(app, "finishedTime", 0)));
    field(out, "AM Host", amHost(app));
    field(out, "Tracking-URL", orNotAvailable(YarnJson.text(app, "trackingUrl", "")));
    field(out, "Diagnostics", Formats.oneLine(YarnJson.text(app, "diagnostics", "")));
  }

  /** The host the AM registered from, else the node its container runs on. */
  private static String amHost(JsonNode app) {
    String address = YarnJson.firstText(app, "", "amRPCAddress", "amHostHttpAddress");
    int colon = address.lastIndexOf(':');
    return orNotAvailable(colon > 0 ? address.substring(0, colon) : address);
  }

  private static void printAttempts(List<JsonNode> attempts, PrintStream out) {
    out.println("Application Attempts: " + attempts.size());
    if (attempts.isEmpty()) return;
    TextTable table = new TextTable("Attempt-Id", "State", "AM-Container", "Node", "Exit-Status", "Diagnostics");
    for (JsonNode a : attempts) {
      table.row(
          YarnJson.firstText(a, YarnJson.text(a, "id", "?"), "appAttemptId"),
          YarnJson.firstText(a, Formats.NOT_AVAILABLE, "appAttemptState"),
          YarnJson.firstText(a, Formats.NOT_AVAILABLE, "containerId"),
          YarnJson.firstText(a, Formats.NOT_AVAILABLE, "nodeId", "nodeHttpAddress"),
          exitStatus(a),
          YarnJson.firstText(a, "", "diagnosticsInfo", "diagnostics"));
    }
    table.print(out);
  }

  /** Bobbin reports the AM container's exit status; YARN's AppAttemptInfo has no such field. */
  private static String exitStatus(JsonNode attempt) {
    return YarnJson.has(attempt, "exitStatus") ? YarnJson.text(attempt, "exitStatus", "") : Formats.NOT_AVAILABLE;
  }

  private static void field(PrintStream out, String label, String value) {
    out.println("  " + label + " ".repeat(Math.max(1, 18 - label.length())) + ": " + value);
  }
}
