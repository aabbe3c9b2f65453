package dev.bobbin.launcher.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.YarnApplicationState;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bobbin application}: {@code yarn application}, with its options as yarn spells them. */
@Command(name = "application", header = "Lists, reports on and controls applications, as yarn application.",
    description = {"-list [-appStates S,..|ALL] [-appTypes T,..] [-queue Q]: applications (default states SUBMITTED,"
        + " ACCEPTED, RUNNING); -status APP_ID; -kill APP_ID; -movetoqueue APP_ID -queue Q;"
        + " -updatePriority P -appId APP_ID; -updateLifetime SECONDS -appId APP_ID."})
final class ApplicationVerb extends YarnVerb {
  private static final Set<YarnApplicationState> LISTED_BY_DEFAULT =
      Set.of(YarnApplicationState.SUBMITTED, YarnApplicationState.ACCEPTED, YarnApplicationState.RUNNING);
  private static final DateTimeFormatter EXPIRY = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  @Option(names = "-list", description = "list applications") boolean list;
  @Option(names = "-appStates", paramLabel = "S1,S2", description = "with -list: these states, or ALL") String appStates;
  @Option(names = "-appTypes", paramLabel = "T1,T2", description = "with -list: these application types") String appTypes;
  @Option(names = "-status", paramLabel = "APP_ID", description = "an application's report") String status;
  @Option(names = "-kill", paramLabel = "APP_ID", description = "kill an application") String kill;
  @Option(names = "-movetoqueue", paramLabel = "APP_ID", description = "move an application to -queue") String move;
  @Option(names = "-queue", paramLabel = "Q", description = "with -movetoqueue: the target; with -list: a filter")
  String queue;
  @Option(names = "-updatePriority", paramLabel = "P", description = "set -appId's priority") Integer priority;
  @Option(names = "-updateLifetime", paramLabel = "SECONDS", description = "-appId is killed this long from now")
  Long lifetime;
  @Option(names = "-appId", paramLabel = "APP_ID", description = "the application to update") String appId;

  ApplicationVerb(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String action = action(actions("-list", list, "-status", status, "-kill", kill, "-movetoqueue", move,
        "-updatePriority", priority, "-updateLifetime", lifetime));
    if (!action.equals("-list")) {
      notWith(action, "-appStates", appStates);
      notWith(action, "-appTypes", appTypes);
    }
    if (!action.equals("-list") && !action.equals("-movetoqueue")) notWith(action, "-queue", queue);
    if (!action.startsWith("-update")) notWith(action, "-appId", appId);
    if (json() && !action.equals("-list") && !action.equals("-status")) {
      throw new UsageException("--output json is for reads: -list and -status");
    }
    return switch (action) {
      case "-list" -> list();
      case "-status" -> status(applicationId(status));
      case "-kill" -> KillCommand.kill(rm(), applicationId(kill), null, context, out);
      case "-movetoqueue" -> moveToQueue(applicationId(move));
      case "-updatePriority" -> updatePriority(target("-updatePriority"));
      default -> updateLifetime(target("-updateLifetime"));
    };
  }

  private String target(String action) {
    if (appId == null) throw new UsageException(action + " needs -appId APP_ID");
    return applicationId(appId);
  }

  private int list() {
    Map<String, String> query = new LinkedHashMap<>();
    Set<YarnApplicationState> states = appStates == null ? LISTED_BY_DEFAULT
        : appStates.strip().equalsIgnoreCase("ALL") ? Set.of() : states("-appStates", appStates, YarnApplicationState.class);
    if (!states.isEmpty()) {
      query.put("states", states.stream().map(Enum::name).sorted().collect(Collectors.joining(",")));
    }
    if (appTypes != null) query.put("applicationTypes", appTypes);
    if (queue != null) query.put("queue", queue);
    if (target.user != null) query.put("user", target.user);
    JsonNode answer = rm().read("/apps", query);
    if (json()) return printJson(answer);
    List<JsonNode> apps = elements(answer, "apps", "app");
    out.println("Total number of applications (application-types: " + (appTypes == null ? "[]" : "[" + appTypes + "]")
        + " and states: " + states.stream().map(Enum::name).sorted().toList() + "):" + apps.size());
    TextTable table = new TextTable("Application-Id", "Name", "User", "Queue", "State", "Progress");
    for (JsonNode app : apps) {
      table.row(text(app, "id"), text(app, "name"), text(app, "user"), text(app, "queue"), text(app, "state"),
          Formats.progress((float) app.path("progress").asDouble()));
    }
    table.print(out, TERMINAL_WIDTH, 1, 2, 3);
    return 0;
  }

  private int status(String id) {
    if (json()) return printJson(rm().read("/apps/" + id, Map.of()));
    return StatusCommand.report(rm(), id, out);
  }

  private int moveToQueue(String id) {
    if (queue == null) throw new UsageException("-movetoqueue needs -queue Q");
    out.println("Moved application " + id + " to queue " + rm().moveToQueue(id, queue));
    return 0;
  }

  private int updatePriority(String id) {
    out.println("Updated priority of application " + id + " to " + rm().updatePriority(id, priority));
    return 0;
  }

  private int updateLifetime(String id) {
    if (lifetime <= 0) throw new UsageException("-updateLifetime must be a positive number of seconds, got " + lifetime);
    String expiry = EXPIRY.format(Instant.now().plusSeconds(lifetime).atZone(ZoneId.systemDefault()));
    JsonNode timeout = rm().updateLifetime(id, expiry);
    out.println("Updated lifetime of application " + id + ": it expires at " + text(timeout, "expiryTime"));
    return 0;
  }
}
