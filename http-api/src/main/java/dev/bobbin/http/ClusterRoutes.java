package dev.bobbin.http;

import static dev.bobbin.http.JsonResponses.badRequest;
import static dev.bobbin.http.JsonResponses.failure;
import static dev.bobbin.http.JsonResponses.ok;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.config.QueuePath;
import dev.bobbin.auth.AuditLog;
import dev.bobbin.auth.Identity;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.RmCore;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.http.server.MediaNegotiation;
import dev.bobbin.http.server.PathIds;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;

/**
 * YARN's ResourceManager REST API under {@code /ws/v1/cluster}: translation to {@link RmCore} and
 * back, for authenticated callers, with YARN's authorization: admin endpoints for administrators,
 * kills for those who may modify the application, and other users' applications shown without
 * what only their viewers may see. Each operation on protected state leaves an audit line.
 */
final class ClusterRoutes extends AllDirectives {
  /** A kill's reason, kept with the application and shown in every report of it. */
  static final int MAX_DIAGNOSTICS_LENGTH = 4096;
  private static final String SERVICE = "RMWebService";
  private static final String ADMIN_SERVICE = "AdminService";
  private static final String SUBMIT = "Submit Application Request";
  /** The scheduler view's classes that JAXB tells apart by {@code xsi:type}: its JSON's {@code type}. */
  private static final Set<String> SCHEDULER_TYPES = Set.of("fifoScheduler", "fairScheduler",
      "fairSchedulerLeafQueueInfo", "capacityScheduler", "capacitySchedulerLeafQueueInfo");
  private final RmCore core;
  private final UserAccess users;
  private final GroupsRefresh groupsRefresh;
  private final long startedOn = System.currentTimeMillis();

  ClusterRoutes(RmCore core, UserAccess users, GroupsRefresh groupsRefresh) {
    this.core = core;
    this.users = users;
    this.groupsRefresh = groupsRefresh;
  }

  Route routes() {
    return pathPrefix("ws", () -> pathPrefix("v1", () -> pathPrefix("cluster", () -> users.require(caller -> xml(null, () -> concat(
        pathEndOrSingleSlash(() -> get(() -> async(this::info))),
        path("info", () -> get(() -> async(this::info))),
        path("metrics", () -> get(() -> async(this::metrics))),
        path("scheduler", () -> extractRequest(request -> mapResponse(r ->
            MediaNegotiation.negotiated(request, r, null, SCHEDULER_TYPES), () -> get(() -> async(this::scheduler))))),
        path("nodes", () -> get(() -> parameterMap(q -> async(() -> nodes(q))))),
        path(PathMatchers.segment("nodes").slash(PathMatchers.segment()), id -> get(() ->
            PathIds.nodeId(id, () -> async(() -> node(id))))),
        path(PathMatchers.segment("nodes").slash(PathMatchers.segment()).slash("state"), id -> put(() ->
            PathIds.nodeId(id, () -> xml("nodeState", () -> body(body -> putNodeState(id, body, caller)))))),
        pathPrefix("admin", () -> admin(caller)),
        pathPrefix("apps", () -> appRoutes(caller))))))));
  }

  /**
   * The route's answers in XML to a caller who asks for it: a successful body with the root element
   * {@code root} (YARN's name for a class whose JSON has no root), or its one field when null; an
   * error always under {@code RemoteException}.
   */
  private Route xml(String root, Supplier<Route> inner) {
    return extractRequest(request -> mapResponse(r -> root != null && !r.status().isSuccess() ? r
        : MediaNegotiation.negotiated(request, r, root), inner));
  }

  /** The request's body, JSON or XML by its content type. */
  private Route body(Function<RequestBody, Route> inner) {
    return extractRequestEntity(e -> entity(Unmarshaller.entityToString(),
        text -> inner.apply(new RequestBody(text, MediaNegotiation.isXml(e.getContentType())))));
  }

  /** Every admin endpoint: the administrators' alone once ACLs are on. */
  private Route admin(RestCaller caller) {
    return concat(
        path("refresh-queues", () -> concat(put(() -> refreshQueues(caller)), post(() -> refreshQueues(caller)))),
        path("refresh-nodes", () -> parameterOptional("graceful", graceful ->
            concat(put(() -> refreshNodes(caller, graceful)), post(() -> refreshNodes(caller, graceful))))),
        path("refresh-user-to-groups-mappings", () -> concat(put(() -> refreshGroups(caller)),
            post(() -> refreshGroups(caller)))),
        path("groups", () -> get(() -> parameterOptional("user", user -> groups(caller, user)))));
  }

  /**
   * {@code yarn rmadmin -getGroups [USER]}: the groups this member finds for a user. Anyone may ask
   * for their own; another user's are for administrators alone.
   */
  private Route groups(RestCaller caller, java.util.Optional<String> asked) {
    String user = asked.map(String::strip).filter(u -> !u.isEmpty()).orElse(caller.user());
    return async(() -> {
      if (user.equals(caller.user())) {
        return CompletableFuture.completedFuture(ok(Map.of("user", user, "groups", caller.who().groups())));
      }
      if (!core.access().isAdmin(caller.who())) {
        throw Rejection.accessDenied("User " + caller.user() + " doesn't have permission to call 'getGroups' for "
            + user);
      }
      return groupsRefresh.groupsOf(Identity.of(user)).thenApply(g -> ok(Map.of("user", user, "groups", g)));
    }, caller, "Get Groups", ADMIN_SERVICE, null);
  }

  /** Bobbin's stand-in for {@code yarn rmadmin -refreshQueues}. */
  private Route refreshQueues(RestCaller caller) {
    return asAdmin(caller, "refreshQueues", "Refresh Queues", core::refreshQueues);
  }

  /** {@code yarn rmadmin -refreshNodes}: the host lists read again, and refused hosts decommissioned. */
  private Route refreshNodes(RestCaller caller, java.util.Optional<String> graceful) {
    return asAdmin(caller, "refreshNodes", "Refresh Nodes", () -> core.refreshNodes(NodeStateJson.graceful(graceful)));
  }

  /** A graceful decommission, a forced one, or a recommission of one node: the administrators' alone. */
  private Route putNodeState(String id, RequestBody body, RestCaller caller) {
    return asAdmin(caller, "updateNodeState", "Update Node State", () -> {
      JsonNode tree = body.tree("nodeState");
      return core.setNodeState(id, NodeStateJson.state(tree), NodeStateJson.timeout(tree));
    }, state -> ok(Map.of("state", state)));
  }

  /** {@code yarn rmadmin -refreshUserToGroupsMappings}. */
  private Route refreshGroups(RestCaller caller) {
    return asAdmin(caller, "refreshUserToGroupsMappings", "Refresh User To Groups Mappings",
        () -> CompletableFuture.completedFuture(groupsRefresh.refresh()));
  }

  private Route asAdmin(RestCaller caller, String method, String operation, Supplier<CompletionStage<String>> op) {
    return asAdmin(caller, method, operation, op, msg -> ok(Map.of("result", msg)));
  }

  private Route asAdmin(RestCaller caller, String method, String operation, Supplier<CompletionStage<String>> op,
      Function<String, HttpResponse> answer) {
    return async(() -> {
      if (!core.access().isAdmin(caller.who())) {
        throw Rejection.accessDenied("User " + caller.user() + " doesn't have permission to call '" + method + "'");
      }
      return audited(caller, operation, ADMIN_SERVICE, null, op.get()).thenApply(answer);
    }, caller, operation, ADMIN_SERVICE, null);
  }

  private Route appRoutes(RestCaller caller) {
    return concat(
        pathEndOrSingleSlash(() -> concat(
            get(() -> parameterMultiMap(q -> extractUri(uri -> async(() -> listApps(q, caller, rmBase(uri)))))),
            post(() -> extractUri(uri -> body(
                body -> async(() -> submit(body, caller, uri.toString()), caller, SUBMIT, SERVICE, null)))))),
        path("new-application", () -> xml("NewApplication", () -> post(() -> async(() -> newApplication(caller.user()))))),
        pathPrefix(PathMatchers.segment(), id -> PathIds.applicationId(id, () -> oneApp(id, caller))));
  }

  private Route oneApp(String id, RestCaller caller) {
    return concat(
        pathEndOrSingleSlash(() -> get(() -> extractUri(uri -> async(() -> app(id, caller, rmBase(uri)))))),
        path("appattempts", () -> get(() -> async(() -> attempts(id, caller)))),
        path("amrmtoken", () -> get(() -> async(() -> amToken(id, caller)))),
        path(PathMatchers.segment("appattempts").slash(PathMatchers.segment()).slash("containers"), attemptId ->
            get(() -> PathIds.attemptId(attemptId, () -> async(() -> attemptContainers(id, attemptId, caller))))),
        path("state", () -> xml("appstate", () -> concat(
            get(() -> async(() -> state(id))),
            put(() -> body(body -> async(() -> putState(id, body, caller))))))),
        path("timeouts", () -> get(() -> async(() -> timeouts(id)))),
        path(PathMatchers.segment("timeouts").slash(PathMatchers.segment()), type ->
            get(() -> async(() -> timeout(id, type)))),
        path("timeout", () -> concat(
            get(() -> async(() -> timeout(id, AppTimeoutJson.LIFETIME))),
            put(() -> body(body -> async(() -> putTimeout(id, body, caller)))))),
        path("priority", () -> xml("applicationpriority", () -> concat(
            get(() -> async(() -> priority(id))),
            put(() -> body(body -> async(() -> putPriority(id, body, caller))))))),
        path("queue", () -> xml("appqueue", () -> concat(
            get(() -> async(() -> queue(id))),
            put(() -> body(body -> async(() -> putQueue(id, body, caller))))))));
  }

  private CompletionStage<HttpResponse> queue(String id) {
    return core.application(id).thenApply(r -> ok(Map.of("queue", QueuePath.of(r.queue()).full())));
  }

  /**
   * As {@code yarn application -movetoqueue}: for whoever may modify the application and submit to
   * the target queue.
   */
  private CompletionStage<HttpResponse> putQueue(String id, RequestBody body, RestCaller caller) {
    String queue = SubmissionJson.queue(body.tree("appqueue"));
    return audited(caller, "Move Application Request", SERVICE, id,
        core.moveToQueue(id, queue, caller.who(), mayModify(caller, id))).thenApply(r -> ok(Map.of("queue", QueuePath.of(r.queue()).full())));
  }

  private CompletionStage<HttpResponse> priority(String id) {
    return core.application(id).thenApply(r -> ok(Map.of("priority", r.priority())));
  }

  /** As {@code yarn application -updatePriority}: for whoever may kill the application. */
  private CompletionStage<HttpResponse> putPriority(String id, RequestBody body, RestCaller caller) {
    int priority = SubmissionJson.priority(body.tree("applicationpriority"));
    return audited(caller, "Update Application Priority", SERVICE, id, core.updatePriority(id, priority, mayModify(caller, id))).thenApply(r -> ok(Map.of("priority", r.priority())));
  }

  private CompletionStage<HttpResponse> timeouts(String id) {
    return core.application(id).thenApply(r -> ok(Map.of("timeouts",
        AppTimeoutJson.timeouts(r, System.currentTimeMillis()))));
  }

  private CompletionStage<HttpResponse> timeout(String id, String type) {
    AppTimeoutJson.type(type);
    return core.application(id).thenApply(r -> ok(Map.of("timeout",
        AppTimeoutJson.lifetime(r, System.currentTimeMillis()))));
  }

  /** As {@code yarn application -updateLifetime}: for whoever may kill the application. */
  private CompletionStage<HttpResponse> putTimeout(String id, RequestBody body, RestCaller caller) {
    long expiry = AppTimeoutJson.expiryTime(body.tree(null));
    return audited(caller, "Update Application Timeouts", SERVICE, id,
        core.updateLifetime(id, expiry, mayModify(caller, id)))
        .thenApply(r -> ok(Map.of("timeout", AppTimeoutJson.lifetime(r, System.currentTimeMillis()))));
  }

  /** The AM token an unmanaged AM registers with: for the application's owner only, as in YARN's report. */
  private CompletionStage<HttpResponse> amToken(String id, RestCaller caller) {
    return audited(caller, "Get AM Token", SERVICE, id, core.amToken(id, caller.user()))
        .thenApply(t -> ok(Map.of("amRMToken", Map.of("appAttemptId", t.attemptId(), "token", t.token()))));
  }

  private CompletionStage<HttpResponse> attempts(String id, RestCaller caller) {
    return audited(caller, "Get Application Attempts", SERVICE, id, core.application(id))
        .thenApply(r -> ok(AppJson.attempts(r, canView(caller, r), core.nodeScheme())));
  }

  /**
   * YARN's containers of an attempt: for the current attempt every live container of the application,
   * those it took over from earlier attempts among them (as YARN's scheduler reports the current
   * attempt's); for an earlier attempt, those it allocated that still run. For viewers only.
   */
  private CompletionStage<HttpResponse> attemptContainers(String id, String attemptId, RestCaller caller) {
    return audited(caller, "Get Containers", SERVICE, id, core.application(id).thenCompose(r -> {
      if (!canView(caller, r)) {
        throw Rejection.accessDenied("User " + caller.user() + " does not have privilege to see this application " + id);
      }
      if (r.attempts().stream().noneMatch(a -> a.attemptId().equals(attemptId))) {
        throw Rejection.notFound("ApplicationAttempt with id '" + attemptId + "' doesn't exist in RM.");
      }
      boolean current = r.currentAttempt().attemptId().equals(attemptId);
      return core.containers(id).thenApply(cs -> ok(AppJson.containers(
          cs.containers().stream().filter(c -> current || c.attemptId().equals(attemptId)).toList(), r.user(),
          core.nodeScheme(), System.currentTimeMillis())));
    }));
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

  /** The same, with a refusal before the work began in the audit log as well. */
  private Route async(Supplier<CompletionStage<HttpResponse>> work, RestCaller caller, String operation, String target,
      String appId) {
    return async(() -> {
      try {
        return work.get();
      } catch (Rejection r) {
        AuditLog.of(caller.user(), caller.address(), operation, target).app(appId).failure(r.getMessage());
        throw r;
      }
    });
  }

  /** Writes the operation's audit line once it has succeeded or failed. */
  private static <T> CompletionStage<T> audited(RestCaller caller, String operation, String target, String appId,
      CompletionStage<T> result) {
    return result.whenComplete((r, e) -> {
      AuditLog.Entry entry = AuditLog.of(caller.user(), caller.address(), operation, target).app(appId);
      if (r instanceof AppReport report) entry.queue(report.queue());
      if (e == null) entry.success();
      else entry.failure(String.valueOf(Retrying.cause(e).getMessage()));
    });
  }

  private boolean canView(RestCaller caller, AppReport r) {
    return core.access().canView(caller.who(), r, core.queueAcls());
  }

  /** YARN's cluster information; its id is the timestamp in the application ids this member issues. */
  private CompletionStage<HttpResponse> info() {
    return core.applicationIdStamp().thenApply(stamp -> ok(info(stamp)));
  }

  private Map<String, Object> info(long clusterId) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", clusterId);
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

  /** The caller submits as themselves, whatever the body says. */
  private CompletionStage<HttpResponse> submit(RequestBody body, RestCaller caller, String uri) {
    JsonNode tree = body.tree(SubmissionFields.ROOT);
    var submission = SubmissionJson.withLongRunningFields(tree, SubmissionJson.parse(tree, caller.user()));
    String base = uri.contains("?") ? uri.substring(0, uri.indexOf('?')) : uri;
    String location = (base.endsWith("/") ? base : base + "/") + submission.appId();
    return audited(caller, SUBMIT, SERVICE, submission.appId(),
        core.submit(submission, caller.who())).thenApply(r -> JsonResponses.accepted(location));
  }

  private CompletionStage<HttpResponse> app(String id, RestCaller caller, String rmBase) {
    return core.applicationIdStamp().thenCompose(clusterId ->
        audited(caller, "Get Application Report", SERVICE, id, core.application(id)).thenCombine(core.usage(id),
            (r, u) -> ok(Map.of("app", AppJson.app(r, u.usage(), clusterId, u.clusterCapacity(),
                System.currentTimeMillis(), canView(caller, r), core.nodeScheme(), rmBase)))));
  }

  /** {@code http://host:port} of the RM as the caller reached it. */
  private static String rmBase(org.apache.pekko.http.javadsl.model.Uri uri) {
    return uri.scheme() + "://" + uri.host().address() + (uri.port() > 0 ? ":" + uri.port() : "");
  }

  private CompletionStage<HttpResponse> listApps(Map<String, List<String>> q, RestCaller caller, String rmBase) {
    AppFilter filter = AppFilter.parse(q);
    return core.applicationIdStamp().thenCompose(clusterId ->
        audited(caller, "Get Applications Request", SERVICE, null, core.applications())
        .thenCombine(core.usage(), (apps, u) -> {
          long now = System.currentTimeMillis();
          List<Object> out = new ArrayList<>();
          for (AppReport r : apps) {
            if (out.size() >= filter.limit()) break;
            if (filter.test().test(r)) {
              out.add(AppJson.app(r, u.apps().get(r.id()), clusterId, u.clusterCapacity(), now,
                  canView(caller, r), core.nodeScheme(), rmBase));
            }
          }
          return ok(Map.of("apps", Map.of("app", out)));
        }));
  }

  private CompletionStage<HttpResponse> putState(String id, RequestBody body, RestCaller caller) {
    JsonNode tree = body.tree("appstate");
    String target = tree.path("state").asText("");
    if (!AppState.KILLED.name().equals(target)) {
      return CompletableFuture.completedFuture(badRequest("Only 'KILLED' is allowed as a target state."));
    }
    String diagnostics = tree.path("diagnostics").asText("");
    if (diagnostics.length() > MAX_DIAGNOSTICS_LENGTH) {
      return CompletableFuture.completedFuture(badRequest("diagnostics may have at most " + MAX_DIAGNOSTICS_LENGTH
          + " characters, it had " + diagnostics.length()));
    }
    return audited(caller, "Kill Application Request", SERVICE, id, core.kill(id, diagnostics, mayModify(caller, id))).thenApply(r -> ok(Map.of("state", r.state().name())));
  }

  /** YARN's MODIFY_APP: the owner, the application's ACL, the queue's administrators and the cluster's. */
  private Consumer<AppReport> mayModify(RestCaller caller, String id) {
    return found -> {
      if (!core.access().canModify(caller.who(), found, core.queueAcls())) {
        throw Rejection.accessDenied("User " + caller.user() + " cannot perform operation MODIFY_APP on " + id);
      }
    };
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
