package dev.bobbin.node.http;

import static org.apache.pekko.http.javadsl.server.PathMatchers.segment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.http.server.PathIds;
import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.http.server.RequestGuard;
import dev.bobbin.http.server.RequestJson;
import dev.bobbin.auth.Authentication;
import dev.bobbin.auth.Identity;
import dev.bobbin.node.NodeAgent;
import dev.bobbin.node.NodeView;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
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
import org.apache.pekko.http.javadsl.model.StatusCode;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.ExceptionHandler;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;

/**
 * The NodeManager's HTTP API: container management (start, stop, status), the read-only YARN NM
 * REST resources, container logs ({@link ContainerLogRoutes}: REST and the log pages the RM links
 * to), {@code /metrics}, and the resources of auxiliary services under {@code /aux/<service>/}.
 * Translates to asks of the node actor.
 * Container management checks the container tokens its callers present; every other route is for
 * users the configured authenticator established first, except the auxiliary services', which
 * authenticate their callers themselves.
 */
public final class NodeRoutes extends AllDirectives {
  private static final String SERVER_ERROR = "org.apache.hadoop.yarn.webapp.WebApplicationException";

  private final ActorRef<NodeAgent.Command> agent;
  private final Scheduler scheduler;
  private final Duration askTimeout;
  private final NodeMetrics metrics;
  private final HttpLimits limits;
  private final Authentication<Identity> users;
  private final ContainerAccess access;
  private final ContainerLogRoutes logs;
  /** The auxiliary services' own resources, by service name, served under {@code /aux/<name>/}. */
  private final Map<String, Route> auxRoutes;
  private final ObjectMapper json = WireJson.mapper();

  public NodeRoutes(ActorRef<NodeAgent.Command> agent, Scheduler scheduler, Duration askTimeout, NodeMetrics metrics,
      HttpLimits limits, Authentication<Identity> users, ContainerAccess access) {
    this(agent, scheduler, askTimeout, metrics, limits, users, access, Map.of());
  }

  public NodeRoutes(ActorRef<NodeAgent.Command> agent, Scheduler scheduler, Duration askTimeout, NodeMetrics metrics,
      HttpLimits limits, Authentication<Identity> users, ContainerAccess access, Map<String, Route> auxRoutes) {
    this.auxRoutes = Map.copyOf(auxRoutes);
    this.users = users;
    this.access = access;
    this.logs = new ContainerLogRoutes(agent, scheduler, askTimeout, access);
    this.agent = agent;
    this.scheduler = scheduler;
    this.askTimeout = askTimeout;
    this.metrics = metrics;
    this.limits = limits;
  }

  /** Behind {@link RequestGuard}: bind with {@link RequestGuard#serverSettings}. */
  public Route routes() {
    return RequestGuard.guard(limits, () -> handleExceptions(
        ExceptionHandler.newBuilder()
            .matchAny(e -> remoteError(StatusCodes.INTERNAL_SERVER_ERROR, SERVER_ERROR, String.valueOf(e)))
            .build(),
        () -> concat(
            pathPrefix(segment("ws").slash("v1").slash("node"), () -> concat(
                pathPrefix("container-manager", this::containerManagement),
                users.require(caller -> get(() -> nodeResources(caller.principal()))))),
            pathPrefix(segment("node").slash("containerlogs"), () ->
                users.require(caller -> get(() -> logs.pages(caller.principal())))),
            path("metrics", () -> users.require(caller -> get(() -> view(v ->
                complete(HttpResponse.create().withEntity(
                    HttpEntities.create(ContentTypes.TEXT_PLAIN_UTF8, metrics.scrape(v)))))))),
            auxiliaryServices())));
  }

  /** Each service checks its own callers (containers hold no user credentials). */
  private Route auxiliaryServices() {
    if (auxRoutes.isEmpty()) return reject();
    Route[] services = auxRoutes.entrySet().stream()
        .map(e -> pathPrefix(e.getKey(), e::getValue)).toArray(Route[]::new);
    return pathPrefix("aux", () -> concat(services[0], java.util.Arrays.copyOfRange(services, 1, services.length)));
  }

  private Route containerManagement() {
    return post(() -> concat(
        path("start", () -> jsonBody(StartContainersRequest.class, "requests", req ->
            this.<StartContainersResponse>askAndAnswer(replyTo -> new NodeAgent.StartContainers(req, replyTo)))),
        path("stop", () -> jsonBody(StopContainersRequest.class, "containerTokens", req ->
            this.<StopContainersResponse>askAndAnswer(replyTo -> new NodeAgent.StopContainers(req, replyTo)))),
        path("status", () -> jsonBody(GetContainerStatusesRequest.class, "containerTokens", req ->
            this.<GetContainerStatusesResponse>askAndAnswer(replyTo -> new NodeAgent.GetContainerStatuses(req, replyTo))))));
  }

  private Route nodeResources(Identity caller) {
    return concat(
        pathEndOrSingleSlash(() -> view(v -> ok(RestViews.nodeInfo(v)))),
        path("info", () -> view(v -> ok(RestViews.nodeInfo(v)))),
        pathPrefix("containers", () -> concat(
            pathEndOrSingleSlash(() -> view(v -> ok(RestViews.containers(v)))),
            pathPrefix(segment(), id -> PathIds.containerId(id, () -> concat(
                pathEndOrSingleSlash(() -> withContainer(id, caller,
                    (v, c) -> ok(Map.of("container", RestViews.container(v, c))))),
                pathPrefix("logs", () -> logs.rest(id, caller))))))),
        pathPrefix("apps", () -> concat(
            pathEndOrSingleSlash(() -> parameterOptional("state", state -> parameterOptional("user", user ->
                view(v -> ok(Map.of("apps", Map.of("app", apps(v, state, user)))))))),
            path(segment(), appId -> PathIds.applicationId(appId, () ->
                view(v -> apps(v, Optional.empty(), Optional.empty()).stream()
                    .filter(a -> a.id().equals(appId)).findFirst()
                    .map(a -> ok(Map.of("app", a)))
                    .orElseGet(() -> notFound("app with id " + appId + " not found"))))))));
  }

  private static List<RestViews.AppInfo> apps(NodeView v, Optional<String> state, Optional<String> user) {
    return RestViews.apps(v).stream()
        .filter(a -> state.map(s -> s.equalsIgnoreCase(a.state())).orElse(true))
        .filter(a -> user.map(u -> u.equals(a.user())).orElse(true))
        .toList();
  }

  /** The container's details and logs, for those {@link ContainerAccess} lets read them. */
  private Route withContainer(String containerId, Identity caller,
      java.util.function.BiFunction<NodeView, ContainerRecord, Route> inner) {
    return view(v -> {
      Optional<ContainerRecord> c = RestViews.find(v, containerId);
      if (c.isEmpty()) return notFound("container with id " + containerId + " not found");
      if (!access.mayRead(caller, c.get().user())) {
        return complete(ContainerLogRoutes.refusal(caller, containerId));
      }
      return inner.apply(v, c.get());
    });
  }

  private Route view(Function<NodeView, Route> inner) {
    CompletionStage<NodeView> v = AskPattern.ask(agent, NodeAgent.GetNodeView::new, askTimeout, scheduler);
    return onSuccess(v, inner);
  }

  private <T> Route askAndAnswer(Function<ActorRef<T>, NodeAgent.Command> message) {
    CompletionStage<T> answer = AskPattern.ask(agent, message::apply, askTimeout, scheduler);
    return onSuccess(answer, this::ok);
  }

  /** Parses a JSON object that must name {@code requiredField}; anything else is a 400. */
  private <T> Route jsonBody(Class<T> type, String requiredField, Function<T, Route> inner) {
    return entity(Unmarshaller.entityToString(), body -> {
      T value;
      try {
        JsonNode tree = RequestJson.mapper().readTree(body);
        if (tree == null || !tree.isObject() || !tree.has(requiredField)) {
          return badRequest("Expected a JSON object with field '" + requiredField + "'");
        }
        value = RequestJson.mapper().treeToValue(tree, type);
      } catch (JsonProcessingException | IllegalArgumentException e) {
        return badRequest("Malformed " + type.getSimpleName() + ": " + firstLine(e.getMessage()));
      }
      return inner.apply(value);
    });
  }

  private Route ok(Object body) {
    return jsonResponse(StatusCodes.OK, body);
  }

  private Route badRequest(String message) {
    return complete(RemoteErrors.response(400, RemoteErrors.BAD_REQUEST, message));
  }

  private Route notFound(String message) {
    return complete(RemoteErrors.response(404, RemoteErrors.NOT_FOUND, message));
  }

  private Route remoteError(StatusCode status, String javaClassName, String message) {
    return jsonResponse(status, RemoteException.of(javaClassName, message));
  }

  private Route jsonResponse(StatusCode status, Object body) {
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      return complete(StatusCodes.INTERNAL_SERVER_ERROR, "Cannot render JSON: " + e.getOriginalMessage());
    }
    return complete(HttpResponse.create().withStatus(status)
        .withEntity(HttpEntities.create(ContentTypes.APPLICATION_JSON, bytes)));
  }

  private static String firstLine(String s) {
    if (s == null) return "";
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
