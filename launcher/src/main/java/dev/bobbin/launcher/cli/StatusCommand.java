package dev.bobbin.launcher.cli;

import static dev.bobbin.launcher.cli.Formats.orNotAvailable;

import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import dev.bobbin.protocol.rest.AppInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code bobbin status APP_ID}: the application report and its attempts. */
@Command(name = "status", header = "Shows an application, its attempts and its preemptions, as yarn application -status.")
final class StatusCommand extends YarnVerb {
  @Parameters(paramLabel = "APP_ID", description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  StatusCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String appId = applicationId(applicationId);
    if (json()) return printJson(rm().read("/apps/" + appId, Map.of()));
    return report(rm(), appId, out);
  }

  /** Prints {@code appId}'s report, its attempts and its preemptions. */
  static int report(RmRestClient rm, String appId, PrintStream out) {
    AppInfo app = rm.application(appId);
    List<AppAttemptInfo> attempts = rm.attempts(appId);
    printReport(app, out);
    printAttempts(attempts, out);
    printPreemptions(app, out);
    return 0;
  }

  /** Bobbin's own fields: every preemption this application suffered or caused, with its reason. */
  private static void printPreemptions(AppInfo app, PrintStream out) {
    long am = app.numAMContainerPreempted();
    long other = app.numNonAMContainerPreempted();
    List<AppInfo.Preemption> suffered = preemptions(app.preemptionsSuffered());
    List<AppInfo.Preemption> caused = preemptions(app.preemptionsCaused());
    if (am + other == 0 && caused.isEmpty()) return;
    out.println("Preemptions: " + (am + other) + " containers lost (" + am + " AM), "
        + app.preemptedResourceMB() + " MB; " + caused.size() + " recent gained");
    for (AppInfo.Preemption p : suffered) {
      out.println("  lost   " + Formats.text(p.containerId()) + " to " + Formats.text(p.starvedAppId()) + ": "
          + Formats.text(p.reason()));
    }
    for (AppInfo.Preemption p : caused) {
      out.println("  gained " + Formats.text(p.containerId()) + " from " + Formats.text(p.victimAppId()) + ": "
          + Formats.text(p.reason()));
    }
  }

  private static List<AppInfo.Preemption> preemptions(AppInfo.Preemptions p) {
    return p == null ? List.of() : p.preemption();
  }

  private static void printReport(AppInfo app, PrintStream out) {
    out.println("Application Report:");
    field(out, "Application-Id", Formats.text(app.id()));
    field(out, "Application-Name", Formats.text(app.name()));
    field(out, "Application-Type", Formats.text(app.applicationType()));
    field(out, "User", Formats.text(app.user()));
    field(out, "Queue", Formats.text(app.queue()));
    field(out, "State", Formats.text(app.state()));
    field(out, "Final-Status", Formats.text(app.finalStatus()));
    field(out, "Progress", Formats.progress(app.progress()));
    field(out, "Start-Time", Formats.time(app.startedTime()));
    field(out, "Finish-Time", Formats.time(app.finishedTime()));
    field(out, "AM Host", amHost(app));
    field(out, "Tracking-URL", orNotAvailable(app.trackingUrl()));
    field(out, "Diagnostics", Formats.oneLine(app.diagnostics()));
  }

  /** The host the AM registered from, else the node its container runs on. */
  private static String amHost(AppInfo app) {
    String address = firstOf("", app.amRPCAddress(), app.amHostHttpAddress());
    int colon = address.lastIndexOf(':');
    return orNotAvailable(colon > 0 ? address.substring(0, colon) : address);
  }

  private static void printAttempts(List<AppAttemptInfo> attempts, PrintStream out) {
    out.println("Application Attempts: " + attempts.size());
    if (attempts.isEmpty()) return;
    TextTable table = new TextTable("Attempt-Id", "State", "AM-Container", "Node", "Exit-Status", "Diagnostics");
    for (AppAttemptInfo a : attempts) {
      table.row(
          firstOf(a.id() > 0 ? Integer.toString(a.id()) : "?", a.appAttemptId()),
          firstOf(Formats.NOT_AVAILABLE, a.appAttemptState()),
          firstOf(Formats.NOT_AVAILABLE, a.containerId()),
          firstOf(Formats.NOT_AVAILABLE, a.nodeId(), a.nodeHttpAddress()),
          // Bobbin reports the AM container's exit status; YARN's AppAttemptInfo has no such field.
          a.exitStatus() == null ? Formats.NOT_AVAILABLE : a.exitStatus().toString(),
          Formats.text(a.diagnosticsInfo()));
    }
    table.print(out);
  }

  /** The first of {@code values} that is not blank, else {@code dflt}. */
  private static String firstOf(String dflt, String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) return v;
    }
    return dflt;
  }

  private static void field(PrintStream out, String label, String value) {
    out.println("  " + label + " ".repeat(Math.max(1, 18 - label.length())) + ": " + value);
  }
}
