package dev.bobbin.http;

import static dev.bobbin.http.Callers.caller;
import static dev.bobbin.http.JsonResponses.badRequest;
import static dev.bobbin.http.JsonResponses.failure;
import static dev.bobbin.http.JsonResponses.ok;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.RmCore;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.http.server.PathIds;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;

/** YARN's ResourceManager REST API under {@code /ws/v1/cluster}: translation to {@link RmCore} and back. */
final class ClusterRoutes extends AllDirectives {
  /** A kill's reason, kept with the application and shown in every report of it. */
  static final int MAX_DIAGNOSTICS_LENGTH = 4096;
  private final RmCore core;
  private final long startedOn = System.currentTimeMillis();

  ClusterRoutes(RmCore core) {
    this.core = core;
  }

  Route routes() {
    return pathPrefix("ws", () -> pathPrefix("v1", () -> pathPrefix("cluster", () -> concat(
        pathEndOrSingleSlash(() -> get(() -> complete(ok(info())))),
        path("info", () -> get(() -> complete(ok(info())))),
        path("metrics", () -> get(() -> async(this::metrics))),
        path("scheduler", () -> get(() -> async(this::scheduler))),
        path("nodes", () -> get(() -> parameterMap(q -> async(() -> nodes(q))))),
        path(PathMatchers.segment("nodes").slash(PathMatchers.segment()), id -> get(() ->
            PathIds.nodeId(id, () -> async(() -> node(id))))),
        path(PathMatchers.segment("admin").slash("refresh-queues"), () -> concat(put(this::refresh), post(this::refresh))),
        pathPrefix("apps", this::appRoutes)))));
  }

  /** Bobbin's stand-in for {@code yarn rmadmin -refreshQueues}. */
  private Route refresh() {
    return async(() -> core.refreshQueues().thenApply(msg -> ok(Map.of("result", msg))));
  }

  private Route appRoutes() {
    return concat(
        pathEndOrSingleSlash(() -> concat(
            get(() -> parameterMap(q -> async(() -> listApps(q)))),
            post(() -> caller(user -> extractUri(uri -> entity(Unmarshaller.entityToString(),
                body -> async(() -> submit(body, user, uri.toString())))))))),
        path("new-application", () -> post(() -> caller(user -> async(() -> newApplication(user))))),
        pathPrefix(PathMatchers.segment(), id -> PathIds.applicationId(id, () -> oneApp(id))));
  }

  private Route oneApp(String id) {
    return concat(
        pathEndOrSingleSlash(() -> get(() -> async(() -> app(id)))),
        path("appattempts", () -> get(() -> async(() -> attempts(id)))),
        path("state", () -> concat(
            get(() -> async(() -> state(id))),
            put(() -> entity(Unmarshaller.entityToString(), body -> async(() -> putState(id, body)))))));
  }

  private CompletionStage<HttpResponse> attempts(String id) {
    return core.application(id).thenApply(r -> ok(AppJson.attempts(r)));
  }

  private CompletionStage<HttpResponse> state(String id) {
    return core.application(id).thenApply(r -> ok(Map.of("state", r.state().name())));
  }

  private Route async(Supplier<CompletionStage<HttpResponse>> work) {
    CompletionStage<HttpResponse> stage;
    try {
      stage = work.get();
    } catch (RuntimeException e) {
      stage = CompletableFuture.failedFuture(e);
    }
    return completeWithFuture(stage.handle((r, e) -> e == null ? r : failure(e)));
  }

  private Map<String, Object> info() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", core.clusterTimestamp());
    m.put("startedOn", startedOn);
    m.put("state", "STARTED");
    m.put("haState", "ACTIVE");
    m.put("rmStateStoreName", "dev.bobbin.persistence.EventJournal");
    m.put("resourceManagerVersion", Version.VERSION);
    m.put("resourceManagerBuildVersion", Version.VERSION);
    m.put("resourceManagerVersionBuiltOn", "");
    m.put("hadoopVersion", "3.3.6-compatible");
    m.put("hadoopBuildVersion", Version.VERSION);
    m.put("hadoopVersionBuiltOn", "");
    m.put("haZooKeeperConnectionState", "ResourceManager HA is not enabled.");
    return Map.of("clusterInfo", m);
  }

  private CompletionStage<HttpResponse> newApplication(String user) {
    var s = core.schedulerSettings();
    return core.newApplicationId(user).thenApply(id -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("application-id", id);
      m.put("maximum-resource-capability", new Resource(s.maximumAllocationMb(), s.maximumAllocationVcores()));
      return ok(m);
    });
  }

  private CompletionStage<HttpResponse> submit(String body, String user, String uri) {
    JsonNode tree = Bodies.tree(body);
    var submission = SubmissionJson.parse(tree, user);
    String base = uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri;
    String location = (base.endsWith("/") ? base : base + "/") + submission.appId();
    return core.submit(submission).thenApply(r -> JsonResponses.accepted(location));
  }

  private CompletionStage<HttpResponse> app(String id) {
    return core.application(id).thenCombine(core.usage(id), (r, u) ->
        ok(Map.of("app", AppJson.app(r, u.usage(), core.clusterTimestamp(), u.clusterCapacity(),
            System.currentTimeMillis()))));
  }

  private CompletionStage<HttpResponse> listApps(Map<String, String> q) {
    AppFilter filter = AppFilter.parse(q);
    return core.applications().thenCombine(core.usage(), (apps, u) -> {
      long now = System.currentTimeMillis();
      List<Object> out = new ArrayList<>();
      for (AppReport r : apps) {
        if (out.size() >= filter.limit()) break;
        if (filter.test().test(r)) {
          out.add(AppJson.app(r, u.apps().get(r.id()), core.clusterTimestamp(), u.clusterCapacity(), now));
        }
      }
      return ok(Map.of("apps", Map.of("app", out)));
    });
  }

  private CompletionStage<HttpResponse> putState(String id, String body) {
    JsonNode tree = Bodies.tree(body);
    String target = tree.path("state").asText("");
    if (!AppState.KILLED.name().equals(target)) {
      return CompletableFuture.completedFuture(badRequest("Only 'KILLED' is allowed as a target state."));
    }
    String diagnostics = tree.path("diagnostics").asText("");
    if (diagnostics.length() > MAX_DIAGNOSTICS_LENGTH) {
      return CompletableFuture.completedFuture(badRequest("diagnostics may have at most " + MAX_DIAGNOSTICS_LENGTH
          + " characters, it had " + diagnostics.length()));
    }
    return core.kill(id, diagnostics).thenApply(r -> ok(Map.of("state", r.state().name())));
  }

  private CompletionStage<HttpResponse> nodes(Map<String, String> q) {
    var states = NodeJson.parseStates(q.get("states"));
    return core.nodes().thenApply(n -> {
      List<Object> out = new ArrayList<>();
      for (SchedulerProtocol.NodeReport r : n.nodes()) if (states.contains(r.state())) out.add(NodeJson.node(r));
      return ok(Map.of("nodes", Map.of("node", out)));
    });
  }

  private CompletionStage<HttpResponse> node(String id) {
    return core.nodes().thenApply(n -> n.nodes().stream().filter(r -> r.nodeId().equals(id)).findFirst()
        .map(r -> ok(Map.of("node", NodeJson.node(r))))
        .orElseThrow(() -> Rejection.notFound("nodeId, " + id + ", is not found")));
  }

  private CompletionStage<HttpResponse> metrics() {
    return ClusterMetrics.measure(core).thenApply(m -> ok(Map.of("clusterMetrics", m)));
  }

  private CompletionStage<HttpResponse> scheduler() {
    return core.schedulerView().thenApply(v -> ok(Map.of("scheduler", Map.of("schedulerInfo", v.schedulerInfo()))));
  }
}
