package dev.bobbin.protocol.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import dev.bobbin.protocol.rest.AppInfo;
import dev.bobbin.protocol.rest.AppsQuery;
import dev.bobbin.protocol.rest.AttemptContainerInfo;
import dev.bobbin.protocol.rest.ClusterInfo;
import dev.bobbin.protocol.rest.ClusterMetricsInfo;
import dev.bobbin.protocol.rest.KillAnswer;
import dev.bobbin.protocol.rest.NewApplication;
import dev.bobbin.protocol.rest.NodeInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The ResourceManager's REST API ({@code /ws/v1/cluster}) for users, scripts and tools. Every call
 * waits for its answer and throws a {@link CallException} when it gets none or an error. With
 * several RM addresses a call tries them in turn while a member cannot be reached, answers 503, or (for
 * a call that may be repeated) does not answer in time; the client then keeps the member that answered
 * and starts the next call there. Who the calls are made as is the transport's {@link Credentials}
 * (e.g. {@link Credentials#simpleUser}).
 */
public final class RmRestClient {
  static final String CLUSTER = "/ws/v1/cluster";
  static final String APPS = CLUSTER + "/apps";

  private final BobbinHttp http;
  private final AtomicReference<Failover> members;

  public RmRestClient(BobbinHttp http, List<String> rmUrls) {
    this.http = http;
    this.members = new AtomicReference<>(Failover.over(rmUrls));
  }

  /** The member the next call goes to first. */
  public String currentRm() {
    return members.get().current();
  }

  public ClusterInfo clusterInfo() {
    return ClientJson.entity(get(CLUSTER + "/info"), "clusterInfo", ClusterInfo.class);
  }

  public ClusterMetricsInfo clusterMetrics() {
    return ClientJson.entity(get(CLUSTER + "/metrics"), "clusterMetrics", ClusterMetricsInfo.class);
  }

  /** {@code schedulerInfo}, whose shape depends on the scheduler (Fair or FIFO). */
  public JsonNode scheduler() {
    return get(CLUSTER + "/scheduler").as(JsonNode.class).path("scheduler").path("schedulerInfo");
  }

  public NewApplication newApplication() {
    return send(rm -> Call.post(rm, APPS + "/new-application", null)).as(NewApplication.class);
  }

  /**
   * Submits YARN's {@code ApplicationSubmissionContextInfo} (a record, a map or a JSON tree).
   *
   * @return the application's URL, from the answer's {@code Location}
   */
  public String submit(Object submissionContext) {
    Reply r = send(rm -> Call.post(rm, APPS, submissionContext));
    return r.header("Location").orElse(r.url() + "/");
  }

  public AppInfo application(String appId) {
    return ClientJson.entity(get(APPS + "/" + appId), "app", AppInfo.class);
  }

  public List<AppInfo> applications(AppsQuery query) {
    return ClientJson.elements(send(rm -> Call.get(rm, APPS).withQuery(query.parameters())), "apps", "app", AppInfo.class);
  }

  public List<AppAttemptInfo> attempts(String appId) {
    return ClientJson.elements(get(APPS + "/" + appId + "/appattempts"), "appAttempts", "appAttempt", AppAttemptInfo.class);
  }

  /** The containers of one attempt: for the current attempt every live container of the application. */
  public List<AttemptContainerInfo> attemptContainers(String appId, String attemptId) {
    return ClientJson.elements(get(APPS + "/" + appId + "/appattempts/" + attemptId + "/containers"), "containers",
        "container", AttemptContainerInfo.class);
  }

  public String state(String appId) {
    return get(APPS + "/" + appId + "/state").as(JsonNode.class).path("state").asText("");
  }

  /** Asks for the kill; repeat while {@link KillAnswer#accepted()}, as YARN's clients do. */
  public KillAnswer kill(String appId, String diagnostics) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("state", "KILLED");
    if (diagnostics != null && !diagnostics.isEmpty()) body.put("diagnostics", diagnostics);
    Reply r = send(rm -> Call.put(rm, APPS + "/" + appId + "/state", body));
    return new KillAnswer(r.status() == 202, r.body().length == 0 ? "" : r.as(JsonNode.class).path("state").asText(""));
  }

  /** @return the priority the application runs at now: the one asked for, or the cluster's cap */
  public int updatePriority(String appId, int priority) {
    Reply r = send(rm -> Call.put(rm, APPS + "/" + appId + "/priority", Map.of("priority", priority)));
    return r.as(JsonNode.class).path("priority").asInt();
  }

  /** @return the queue the application runs in now */
  public String moveToQueue(String appId, String queue) {
    Reply r = send(rm -> Call.put(rm, APPS + "/" + appId + "/queue", Map.of("queue", queue)));
    return r.as(JsonNode.class).path("queue").asText();
  }

  /**
   * As {@code yarn application -updateLifetime}: the application is killed at {@code expiryTime}
   * (YARN's {@code yyyy-MM-dd'T'HH:mm:ss.SSSZ}); returns the RM's {@code timeout}.
   */
  public JsonNode updateLifetime(String appId, String expiryTime) {
    Map<String, Object> timeout = Map.of("timeout", Map.of("type", "LIFETIME", "expiryTime", expiryTime));
    return send(rm -> Call.put(rm, APPS + "/" + appId + "/timeout", timeout)).as(JsonNode.class).path("timeout");
  }

  /** @param states only nodes in these states; empty for all */
  public List<NodeInfo> nodes(Set<NodeState> states) {
    String filter = states.stream().map(Enum::name).sorted().collect(Collectors.joining(","));
    return ClientJson.elements(send(rm -> Call.get(rm, CLUSTER + "/nodes").withQuery(Map.of("states", filter))),
        "nodes", "node", NodeInfo.class);
  }

  public NodeInfo node(String nodeId) {
    return ClientJson.entity(get(CLUSTER + "/nodes/" + nodeId), "node", NodeInfo.class);
  }

  /** Reloads the scheduler's queues; returns the RM's account of what changed. */
  public String refreshQueues() {
    return send(rm -> Call.put(rm, CLUSTER + "/admin/refresh-queues", null))
        .as(JsonNode.class).path("result").asText("");
  }

  /**
   * {@code yarn rmadmin -refreshNodes}: the RM's members read the host lists again and decommission
   * refused hosts.
   *
   * @param graceful null for a forced decommission; "default" for a graceful one with the RM's
   *     default timeout; else its timeout in seconds
   */
  public String refreshNodes(String graceful) {
    return send(rm -> {
      Call put = Call.put(rm, CLUSTER + "/admin/refresh-nodes", null);
      return graceful == null ? put : put.withQuery(Map.of("graceful", graceful));
    }).as(JsonNode.class).path("result").asText("");
  }

  /** {@code yarn rmadmin -refreshUserToGroupsMappings}: the RM's members look users' groups up afresh. */
  public String refreshUserToGroupsMappings() {
    return send(rm -> Call.put(rm, CLUSTER + "/admin/refresh-user-to-groups-mappings", null))
        .as(JsonNode.class).path("result").asText("");
  }

  /**
   * The RM's JSON answer to a GET of {@code path} (under {@code /ws/v1/cluster}) as it sent it, for
   * clients that print it.
   */
  public JsonNode read(String path, Map<String, String> query) {
    return send(rm -> Call.get(rm, CLUSTER + path).withQuery(query)).as(JsonNode.class);
  }

  private Reply get(String path) {
    return send(rm -> Call.get(rm, path));
  }

  private Reply send(Function<String, Call> call) {
    Failover f = members.get();
    CallException lastFailure = null;
    for (int tried = 0; tried < f.addresses().size(); tried++) {
      Call c = call.apply(f.current());
      try {
        Reply reply = http.sendAndWait(c);
        members.set(f.afterSuccess());
        return reply;
      } catch (CallException e) {
        if (!anotherMemberMayServe(c, e)) {
          // A member that answered, if only with a refusal, is where the next call starts.
          members.set(e instanceof RemoteErrorException ? f.afterSuccess() : f);
          throw e;
        }
        lastFailure = e;
        f = f.afterFailure(true);
      }
    }
    members.set(f);
    throw lastFailure;
  }

  /**
   * The call never reached this member; or the member said it cannot serve now (503: not in the
   * majority, its journal away); or it gave no answer in time to a call that may be repeated (a read,
   * a PUT). A POST that got no answer may have been carried out: the caller decides.
   */
  static boolean anotherMemberMayServe(Call call, CallException e) {
    if (e instanceof RemoteErrorException r) return r.status() == 503;
    if (!(e instanceof UnreachableException u)) return false;
    return u.connectFailed() || (u.timedOut() && !call.method().equals("POST"));
  }
}
