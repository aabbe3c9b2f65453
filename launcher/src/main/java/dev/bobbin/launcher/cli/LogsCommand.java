package dev.bobbin.launcher.cli;

import dev.bobbin.config.LogAggregationSettings;
import dev.bobbin.config.Settings;
import dev.bobbin.node.logs.AggregatedLogs;
import dev.bobbin.node.logs.LogFiles;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.NodeRestClient;
import dev.bobbin.protocol.client.RemoteErrorException;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.AttemptContainerInfo;
import dev.bobbin.protocol.rest.ContainerLogFileInfo;
import dev.bobbin.protocol.rest.NodeContainerInfo;
import dev.bobbin.protocol.rest.NodeInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bobbin logs APP_ID}: an application's container logs, as {@code yarn logs}: the aggregated
 * ones where the NodeManagers copied them, else those the NodeManagers still hold, for the
 * containers the RM lists and those the nodes still know.
 */
@Command(name = "logs", header = "Prints an application's container logs, as yarn logs: the aggregated ones, else"
    + " those on the NodeManagers.")
final class LogsCommand extends ClientCommand {
  /** Nodes that may hold logs and answer for them. */
  private static final EnumSet<NodeState> SERVING =
      EnumSet.of(NodeState.RUNNING, NodeState.UNHEALTHY, NodeState.DECOMMISSIONING);

  @Parameters(paramLabel = "APP_ID", arity = "0..1", description = "application_<clusterTimestamp>_<sequence>")
  String applicationId;

  @Option(names = "-applicationId", paramLabel = "APP_ID", description = "the application, as yarn logs takes it")
  String applicationOption;

  @Option(names = {"--container", "-containerId"}, paramLabel = "ID", description = "only this container's logs")
  String containerId;

  @Option(names = {"--log-file", "-log_files"}, paramLabel = "NAME", split = ",",
      description = "only these log files (e.g. stdout,stderr); default all")
  List<String> logFiles;

  @Option(names = "--remote-app-log-dir", paramLabel = "DIR",
      description = "where aggregated logs are (default: bobbin.nm.log-aggregation.remote-app-log-dir, /tmp/logs)")
  Path remoteAppLogDir;

  @Option(names = "--config", paramLabel = "FILE", description = "HOCON settings that name the aggregated logs' directory")
  Path config;

  @Spec CommandSpec spec;

  /** One container's logs on a NodeManager. */
  private record OnNode(String nodeId, String nodeAddress) {}

  /** APP_ID or -applicationId: one of them. */
  private String application() {
    if (applicationId != null && applicationOption != null) {
      throw new UsageException("Give the application once: APP_ID or -applicationId");
    }
    if (applicationId == null && applicationOption == null) throw new UsageException("Missing APP_ID");
    return applicationId != null ? applicationId : applicationOption;
  }

  LogsCommand(ClientContext context, PrintStream out) {
    super(context, out);
  }

  @Override
  int run() {
    String appId = applicationId(application());
    if (containerId != null && (!Ids.isContainerId(containerId)
        || !Ids.applicationIdOfContainer(containerId).equals(appId))) {
      throw new UsageException("Invalid value for option '--container': " + containerId + " is not a container of "
          + appId);
    }
    List<String> files = logFiles == null ? List.of() : logFiles.stream().map(String::strip).toList();
    for (String f : files) {
      if (!LogFiles.isValidName(f)) throw new UsageException("Invalid value for option '--log-file': '" + f + "'");
    }
    Path root = remoteAppLogDir != null ? remoteAppLogDir
        : LogAggregationSettings.from(Settings.load(config)).remoteAppLogDir();

    RmRestClient rm = rm();
    Optional<AppInfo> app;
    String unknown = "";
    try {
      app = Optional.of(rm.application(appId));
    } catch (RemoteErrorException e) {
      if (e.status() != 404) throw e;
      app = Optional.empty();
      unknown = RmErrors.describe(e);
    }
    List<Path> aggregated = aggregatedDirs(root, appId, app);
    String where = app.map(a -> AggregatedLogs.appDir(root, a.user(), appId).toString())
        .orElse(root + "/*/logs/" + appId);
    if (!aggregated.isEmpty()) {
      if (printAggregated(aggregated, files) > 0) return 0;
      throw RmFailure.error("No logs" + filter(files) + " of application " + appId + " in " + where);
    }
    if (app.isEmpty()) throw RmFailure.error(unknown + "; no aggregated logs of it under " + where);

    List<String> missing = new ArrayList<>();
    int printed = printFromNodes(rm, appId, files, missing);
    PrintWriter err = spec.commandLine().getErr();
    if (printed == 0) {
      throw RmFailure.error("No logs" + filter(files) + " of application " + appId + " found: none aggregated in "
          + where + ", and none on the NodeManagers" + (missing.isEmpty() ? "" : " (" + String.join("; ", missing) + ")"));
    }
    missing.forEach(m -> err.println("Not printed: " + m));
    err.flush();
    return 0;
  }

  private static List<Path> aggregatedDirs(Path root, String appId, Optional<AppInfo> app) {
    try {
      if (app.isPresent()) {
        Path dir = AggregatedLogs.appDir(root, app.get().user(), appId);
        return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) ? List.of(dir) : List.of();
      }
      return AggregatedLogs.appDirs(root, appId);
    } catch (IOException e) {
      throw RmFailure.error("Cannot read the aggregated logs under " + root + ": " + e.getMessage());
    }
  }

  private int printAggregated(List<Path> appDirs, List<String> files) {
    int printed = 0;
    try {
      for (Path appDir : appDirs) {
        for (AggregatedLogs.ContainerLogs c : AggregatedLogs.containers(appDir)) {
          if (containerId != null && !containerId.equals(c.containerId())) continue;
          for (LogFiles.LogFile f : LogFiles.list(c.dir())) {
            if (!files.isEmpty() && !files.contains(f.name())) continue;
            Optional<InputStream> in = LogFiles.open(c.dir(), f.name());
            if (in.isEmpty()) continue;
            LogHeader.before(out, new LogHeader.Of(c.containerId(), c.node(), "AGGREGATED", f.name(),
                f.lastModified().toString(), Long.toString(f.size())));
            try (InputStream text = in.get()) {
              text.transferTo(out);
            }
            LogHeader.after(out, f.name());
            printed++;
          }
        }
      }
    } catch (IOException e) {
      throw RmFailure.error("Cannot read the aggregated logs in " + appDirs + ": " + e.getMessage());
    }
    out.flush();
    return printed;
  }

  private int printFromNodes(RmRestClient rm, String appId, List<String> files, List<String> missing) {
    NodeRestClient nodes = new NodeRestClient(context.http().withCredentials(target.credentials(context)));
    int printed = 0;
    for (Map.Entry<String, OnNode> c : containers(rm, nodes, appId, missing).entrySet()) {
      String id = c.getKey();
      OnNode node = c.getValue();
      if (containerId != null && !containerId.equals(id)) continue;
      List<ContainerLogFileInfo> listed;
      try {
        listed = nodes.containerLogFiles(node.nodeAddress(), id);
      } catch (CallException e) {
        missing.add(id + " on " + node.nodeId() + ": " + e.getMessage());
        continue;
      }
      for (String f : files) {
        if (listed.stream().noneMatch(l -> l.fileName().equals(f))) missing.add(id + " on " + node.nodeId() + " has no " + f);
      }
      for (ContainerLogFileInfo f : listed) {
        if (!files.isEmpty() && !files.contains(f.fileName())) continue;
        String text;
        try {
          text = nodes.containerLog(node.nodeAddress(), id, f.fileName());
        } catch (CallException e) {
          missing.add(f.fileName() + " of " + id + " on " + node.nodeId() + ": " + e.getMessage());
          continue;
        }
        LogHeader.before(out, new LogHeader.Of(id, node.nodeId(), "LOCAL", f.fileName(), f.lastModifiedTime(),
            f.fileSize()));
        out.print(text);
        LogHeader.after(out, f.fileName());
        printed++;
      }
    }
    out.flush();
    return printed;
  }

  /**
   * The application's containers and where each ran: the AM containers of its attempts and the
   * containers the RM lists for them (those that run), and the ended ones the nodes still know.
   */
  private Map<String, OnNode> containers(RmRestClient rm, NodeRestClient nodes, String appId, List<String> missing) {
    Map<String, OnNode> found = new TreeMap<>();
    for (AppAttemptInfo a : rm.attempts(appId)) {
      if (a.containerId() != null && !a.containerId().isEmpty() && a.nodeHttpAddress() != null
          && !a.nodeHttpAddress().isEmpty()) {
        found.putIfAbsent(a.containerId(), new OnNode(a.nodeId(), nodeUrl(a.nodeHttpAddress(), a.logsLink())));
      }
      for (AttemptContainerInfo c : rm.attemptContainers(appId, a.appAttemptId())) {
        found.putIfAbsent(c.containerId(), new OnNode(c.nodeId(), c.nodeHttpAddress()));
      }
    }
    for (NodeInfo n : rm.nodes(SERVING)) {
      List<NodeContainerInfo> held;
      try {
        held = nodes.containers(n.nodeHTTPAddress());
      } catch (CallException e) {
        missing.add("the containers of node " + n.id() + ": " + e.getMessage());
        continue;
      }
      for (NodeContainerInfo c : held) {
        if (Ids.isContainerId(c.id()) && Ids.applicationIdOfContainer(c.id()).equals(appId)) {
          found.putIfAbsent(c.id(), new OnNode(n.id(), n.nodeHTTPAddress()));
        }
      }
    }
    return found;
  }

  /** The node's address with the scheme its log link shows, when the RM gave one. */
  private static String nodeUrl(String address, String logsLink) {
    if (logsLink != null && logsLink.startsWith("https://")) return "https://" + address;
    return address;
  }

  private String filter(List<String> files) {
    String of = containerId == null ? "" : " of container " + containerId;
    return (files.isEmpty() ? "" : " named " + files.stream().collect(Collectors.joining(","))) + of;
  }
}
