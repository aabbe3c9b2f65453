package dev.bobbin.http;

import dev.bobbin.auth.UserAuthenticators;
import dev.bobbin.auth.UserGroups;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.core.RmCore;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.settings.ServerSettings;

/**
 * The RM member's HTTP server: YARN's REST API and metrics, whose callers the configured
 * authenticator establishes first; the NM and AM protocols, whose callers prove themselves with
 * their own credentials.
 */
public final class RmHttpApi extends AllDirectives {
  private final RmCore core;
  private final RmMetrics metrics;
  private final UserAccess users;
  private final GroupsRefresh groupsRefresh;

  /**
   * One per RM member: it holds the member's meter registry and its users' groups.
   *
   * @throws dev.bobbin.config.SettingsException when a key the authenticator needs cannot be read
   */
  public RmHttpApi(ActorSystem<?> system, RmCore core, SecuritySettings security) {
    this.core = core;
    this.metrics = new RmMetrics(() -> ClusterMetrics.measure(core));
    UserGroups groups = UserGroups.of(security.groups(), system.dispatchers().lookup(DispatcherSelector.blocking()));
    this.users = new UserAccess(UserAuthenticators.from(security), groups);
    this.groupsRefresh = GroupsRefresh.start(system, groups);
  }

  public Route routes() {
    // The NM and AM protocols first: most requests are heartbeats and allocate calls.
    return concat(new ProtocolRoutes(core).routes(), new ClusterRoutes(core, users, groupsRefresh).routes(),
        new PrometheusRoute(metrics, users).routes());
  }

  /** Serves with the peer's address recorded on each request, which the audit log names. */
  public CompletionStage<ServerBinding> bind(ActorSystem<?> system, String host, int port) {
    return Http.get(system).newServerAt(host, port)
        .withSettings(ServerSettings.create(system.settings().config()).withRemoteAddressAttribute(true))
        .bind(routes());
  }
}
