package dev.bobbin.node.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.auth.Identity;
import dev.bobbin.http.server.PathIds;
import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.node.NodeAgent;
import dev.bobbin.node.logs.ContainerLogLocation;
import dev.bobbin.node.logs.LogFiles;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Scheduler;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpEntities;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.stream.javadsl.StreamConverters;

/**
 * Container logs over HTTP, for the callers {@link ContainerAccess} lets read them:
 *
 * <ul>
 *   <li>YARN's NM REST resources {@code /ws/v1/node/containers/{id}/logs} (a JSON listing) and
 *       {@code .../logs/{file}} (the file as text): the node's own copy, while the container runs
 *       and after it ended, as long as its log directory is there;
 *   <li>the log pages the RM's reports link to, {@code /node/containerlogs/{id}/{user}} (an HTML
 *       page listing the files) and {@code .../{user}/{file}}: the node's own copy, else, once that
 *       is gone, the copy this node aggregated under {@code user}, as YARN's NodeManager shows it.
 * </ul>
 */
final class ContainerLogRoutes extends AllDirectives {
  static final String PAGES = "/node/containerlogs";
  private static final String ACCESS_CONTROL = "org.apache.hadoop.security.AccessControlException";

  private final ActorRef<NodeAgent.Command> agent;
  private final Scheduler scheduler;
  private final Duration askTimeout;
  private final ContainerAccess access;

  ContainerLogRoutes(ActorRef<NodeAgent.Command> agent, Scheduler scheduler, Duration askTimeout,
      ContainerAccess access) {
    this.agent = agent;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
    this.access = access;
  }

  /** The container's logs on this node, in YARN's REST shapes; below {@code /ws/v1/node/containers/{id}/logs}. */
  Route rest(String containerId, Identity caller) {
    return concat(
        pathEndOrSingleSlash(() -> onThisNode(containerId, caller, loc -> {
          List<RestViews.LogFileInfo> files = list(loc.localDir()).stream().map(f -> new RestViews.LogFileInfo(
              f.name(), Long.toString(f.size()), f.lastModified().toString())).toList();
          return json(Map.of("containerLogsInfo", Map.of(
              "containerLogInfo", files, "logAggregationType", "LOCAL",
              "containerId", containerId, "nodeId", loc.nodeId())));
        })),
        path(segment(), file -> onThisNode(containerId, caller, loc -> file(loc.localDir(), containerId, file))));
  }

  /** The log pages; below {@link #PAGES}. */
  Route pages(Identity caller) {
    return pathPrefix(segment(), id -> PathIds.containerId(id, () -> pathPrefix(segment(), owner -> concat(
        pathEndOrSingleSlash(() -> anyCopy(id, owner, caller, (dir, kind) -> page(id, owner, dir, kind))),
        path(segment(), file -> anyCopy(id, owner, caller, (dir, kind) -> file(dir, id, file)))))));
  }

  private interface LogSource {
    Route apply(Path dir, String kind);
  }

  private Route onThisNode(String containerId, Identity caller, Function<ContainerLogLocation, Route> inner) {
    return located(containerId, loc -> {
      if (!loc.known() && !isDirectory(loc.localDir())) return notFound("container with id " + containerId + " not found");
      if (!access.mayRead(caller, loc.user())) return forbidden(caller, containerId);
      return inner.apply(loc);
    });
  }

  /**
   * The node's own copy, else the one it aggregated under {@code owner}: a directory in {@code
   * owner}'s logs is theirs, unless the node knows the container's user.
   */
  private Route anyCopy(String containerId, String owner, Identity caller, LogSource inner) {
    if (!LogFiles.isValidName(owner)) return badRequest("Invalid user: " + owner);
    return located(containerId, loc -> {
      if (isDirectory(loc.localDir())) {
        return access.mayRead(caller, loc.user()) ? inner.apply(loc.localDir(), "LOCAL") : forbidden(caller, containerId);
      }
      Optional<Path> aggregated = loc.aggregatedDir(owner).filter(ContainerLogRoutes::isDirectory);
      if (aggregated.isEmpty()) {
        return notFound("No logs of container " + containerId + " on this node"
            + (loc.aggregatedRoot().isPresent() ? ", nor among the logs it aggregated for " + owner : ""));
      }
      String user = loc.user().isEmpty() ? owner : loc.user();
      return access.mayRead(caller, user) ? inner.apply(aggregated.get(), "AGGREGATED") : forbidden(caller, containerId);
    });
  }

  private Route located(String containerId, Function<ContainerLogLocation, Route> inner) {
    CompletionStage<ContainerLogLocation> loc = AskPattern.ask(agent,
        r -> new NodeAgent.LocateContainerLogs(containerId, r), askTimeout, scheduler);
    return onSuccess(loc, inner);
  }

  private Route page(String containerId, String owner, Path dir, String kind) {
    StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Logs of ")
        .append(containerId).append("</title></head>\n<body>\n<h1>Logs of ").append(containerId).append("</h1>\n<p>")
        .append(kind.equals("LOCAL") ? "On this node." : "Aggregated by this node; its own copy is gone.")
        .append("</p>\n");
    List<LogFiles.LogFile> files = list(dir);
    if (files.isEmpty()) html.append("<p>No log files.</p>\n");
    html.append("<ul>\n");
    String base = PAGES + "/" + containerId + "/" + encode(owner) + "/";
    for (LogFiles.LogFile f : files) {
      html.append("<li><a href=\"").append(escape(base + encode(f.name()))).append("\">").append(escape(f.name()))
          .append("</a> : Total file length is ").append(f.size()).append(" bytes.</li>\n");
    }
    html.append("</ul>\n</body></html>\n");
    return complete(HttpResponse.create().withEntity(HttpEntities.create(ContentTypes.TEXT_HTML_UTF8, html.toString())));
  }

  private Route file(Path dir, String containerId, String name) {
    if (!LogFiles.isValidName(name)) return badRequest("Invalid log file name: " + name);
    Optional<InputStream> in = LogFiles.open(dir, name);
    if (in.isEmpty()) return notFound("Log file " + name + " of container " + containerId + " not found");
    return complete(HttpResponse.create().withEntity(
        HttpEntities.createChunked(ContentTypes.TEXT_PLAIN_UTF8, StreamConverters.fromInputStream(in::get))));
  }

  private static List<LogFiles.LogFile> list(Path dir) {
    try {
      return LogFiles.list(dir);
    } catch (IOException e) {
      return List.of();
    }
  }

  private static boolean isDirectory(Path p) {
    return Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
  }

  /** The refusal of a caller who may not read a container's details and logs. */
  static HttpResponse refusal(Identity caller, String containerId) {
    return RemoteErrors.response(403, ACCESS_CONTROL, "User " + caller.user()
        + " does not have permission to view the logs of " + containerId);
  }

  private Route forbidden(Identity caller, String containerId) {
    return complete(refusal(caller, containerId));
  }

  private Route badRequest(String message) {
    return complete(RemoteErrors.response(400, RemoteErrors.BAD_REQUEST, message));
  }

  private Route notFound(String message) {
    return complete(RemoteErrors.response(404, RemoteErrors.NOT_FOUND, message));
  }

  private Route json(Object body) {
    try {
      return complete(HttpResponse.create().withEntity(
          HttpEntities.create(ContentTypes.APPLICATION_JSON, WireJson.mapper().writeValueAsBytes(body))));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
