package dev.bobbin.http;

import static dev.bobbin.http.JsonResponses.failure;
import static dev.bobbin.http.JsonResponses.ok;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.auth.AuditLog;
import dev.bobbin.core.RmCore;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.http.server.RemoteErrors;
import dev.bobbin.protocol.WireJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.http.javadsl.model.HttpEntity;
import org.apache.pekko.http.javadsl.model.HttpMethods;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.PathMatchers;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.unmarshalling.Unmarshaller;
import org.apache.pekko.management.javadsl.PekkoManagement;

/**
 * Pekko Management's cluster endpoints, in the RM's HTTP server: {@code /cluster/members} (each
 * member's address, status and roles, the unreachable, the leader and the oldest member, where the
 * cluster singletons run), {@code /cluster/members/{address}}, {@code /cluster/shards[/{type}]},
 * {@code /cluster/domain-events}, and Bobbin's {@code /cluster/sharding} (every shard region's
 * shards and entities per member, and the singletons' member). They are served on the member's own
 * port, with its TLS, to callers its authenticator admits: reads to every authenticated user, as
 * the rest of {@code /ws/v1/cluster} (what a member list shows is no more than the cluster
 * information and node list show); a member's leave or down to administrators only, as YARN's
 * admin endpoints. Under {@code HTTP_AND_HTTPS} they answer on the HTTPS port only. They stand
 * before the serving gate: a member that has not joined, or is cut off, can still say what it sees.
 */
final class ClusterManagementRoutes extends AllDirectives {
  private static final Pattern SERVED = Pattern.compile("members|shards|domain-events|sharding");
  private static final String SERVICE = "ClusterManagement";
  private final Cluster cluster;
  private final RmCore core;
  private final UserAccess users;
  private final boolean httpsAlongside;
  private final Route pekko;
  private final ShardingRoute sharding;

  /** @param httpsAlongside the member serves plain HTTP and HTTPS on two ports: these answer on HTTPS only */
  ClusterManagementRoutes(ActorSystem<?> system, RmCore core, UserAccess users, boolean httpsAlongside) {
    this.cluster = Cluster.get(Adapter.toClassic(system));
    this.core = core;
    this.users = users;
    this.httpsAlongside = httpsAlongside;
    // Writes are not read-only: leave and down, for administrators (checked here, before Pekko's routes).
    this.pekko = PekkoManagement.get(Adapter.toClassic(system)).getRoutes(s -> s.withReadOnly(false));
    this.sharding = new ShardingRoute(system);
  }

  Route routes() {
    return pathPrefixTest(PathMatchers.segment("cluster").slash(PathMatchers.segment(SERVED)), served ->
        overTls(() -> users.require(caller -> extractMethod(method -> {
          if (method.equals(HttpMethods.GET)) return asRemoteErrors(() -> concat(sharding.routes(), pekko));
          return asAdmin(caller, method.value());
        }))));
  }

  private Route overTls(Supplier<Route> inner) {
    if (!httpsAlongside) return inner.get();
    return extractScheme(scheme -> scheme.equals("https") ? inner.get() : complete(RemoteErrors.response(403,
        Rejection.ACCESS_CONTROL, "The cluster's management endpoints are served over HTTPS only: use this member's"
            + " HTTPS port (bobbin.rm.https-port)")));
  }

  /**
   * {@code PUT /cluster/members/{address}} with {@code {"operation":"Leave"}} or {@code "Down"}, and
   * Pekko's {@code DELETE} (a leave): for administrators alone once ACLs are on.
   */
  private Route asAdmin(RestCaller caller, String method) {
    String operation = method.equals("PUT") ? "Update Cluster Member" : method.equals("DELETE") ? "Leave Cluster Member"
        : "Cluster Management " + method;
    if (!core.access().isAdmin(caller.who())) {
      String refusal = "User " + caller.user() + " doesn't have permission to change the cluster's membership";
      AuditLog.of(caller.user(), caller.address(), operation, SERVICE).failure(refusal);
      return complete(failure(Rejection.accessDenied(refusal)));
    }
    return path(PathMatchers.segment("cluster").slash("members").slash(PathMatchers.remaining()), address -> concat(
        put(() -> entity(Unmarshaller.entityToString(), body -> complete(update(caller, address, body)))),
        delete(() -> asRemoteErrors(() -> mapResponse(r -> audited(caller, operation, r), () -> pekko)))));
  }

  private HttpResponse update(RestCaller caller, String address, String body) {
    String operation = "Update Cluster Member";
    try {
      String op = operation(body);
      Member member = find(address).orElseThrow(() -> Rejection.notFound("Member [" + address + "] not found"));
      if (op.equals("down")) cluster.down(member.address());
      else cluster.leave(member.address());
      String message = (op.equals("down") ? "Downing " : "Leaving ") + member.address();
      AuditLog.of(caller.user(), caller.address(), operation, SERVICE).success();
      return ok(Map.of("message", message));
    } catch (Rejection r) {
      AuditLog.of(caller.user(), caller.address(), operation, SERVICE).failure(r.getMessage());
      return failure(r);
    }
  }

  private static String operation(String body) {
    JsonNode tree;
    try {
      tree = body.isBlank() ? WireJson.mapper().createObjectNode() : WireJson.mapper().readTree(body);
    } catch (IOException e) {
      throw Rejection.badRequest("The body is not JSON: " + e.getMessage());
    }
    String op = tree.path("operation").asText("").strip().toLowerCase(Locale.ROOT);
    if (!op.equals("leave") && !op.equals("down")) {
      throw Rejection.badRequest("operation must be \"Leave\" or \"Down\", got " + (tree.has("operation")
          ? "\"" + tree.path("operation").asText() + "\"" : "none"));
    }
    return op;
  }

  /** As Pekko Management finds a member: by its full address, or by host:port. */
  private Optional<Member> find(String address) {
    for (Member m : cluster.state().getMembers()) {
      if (m.address().toString().equals(address) || m.address().hostPort().equals(address)) return Optional.of(m);
    }
    return Optional.empty();
  }

  private static HttpResponse audited(RestCaller caller, String operation, HttpResponse r) {
    AuditLog.Entry entry = AuditLog.of(caller.user(), caller.address(), operation, SERVICE);
    if (r.status().isSuccess()) entry.success();
    else entry.failure(r.status().toString());
    return r;
  }

  /** Pekko Management's errors ({@code {"message": ...}}) as YARN's {@code RemoteException}, as every route answers. */
  private Route asRemoteErrors(Supplier<Route> inner) {
    return mapResponse(ClusterManagementRoutes::asRemoteError, inner);
  }

  static HttpResponse asRemoteError(HttpResponse r) {
    if (r.status().intValue() < 400 || !(r.entity() instanceof HttpEntity.Strict strict)) return r;
    String text = strict.getData().decodeString(StandardCharsets.UTF_8);
    try {
      JsonNode tree = WireJson.mapper().readTree(text);
      if (tree.has("RemoteException")) return r;
      if (tree.hasNonNull("message")) text = tree.path("message").asText();
    } catch (IOException e) {
      // Plain text: kept as the message.
    }
    return RemoteErrors.response(r.status().intValue(), text.strip());
  }
}
