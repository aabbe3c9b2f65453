package dev.bobbin.http;

import dev.bobbin.auth.UserAuthenticators;
import dev.bobbin.auth.UserGroups;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.core.RmCore;
import dev.bobbin.http.server.RequestGuard;
import dev.bobbin.http.serving.ClusterStanding;
import dev.bobbin.http.serving.JournalHealth;
import dev.bobbin.http.serving.JournalProbeSettings;
import dev.bobbin.http.serving.ServeGate;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The routes of an RM member's HTTP server (bound by {@code HttpServers}): YARN's REST API and
 * metrics, whose callers the configured authenticator establishes first; the NM and AM protocols,
 * whose callers prove themselves with their own credentials. Every request is held to the limits,
 * and passes the {@link ServeGate}: only a member that is up, on the majority's side and reaches
 * its journal serves writes.
 */
public final class RmHttpApi extends AllDirectives {
  private final RmCore core;
  private final HttpLimits limits;
  private final RmMetrics metrics;
  private final UserAccess users;
  private final GroupsRefresh groupsRefresh;
  private final ServeGate gate;

  /**
   * One per RM member: it holds the member's meter registry and its users' groups.
   *
   * @throws dev.bobbin.config.SettingsException when a key the authenticator needs cannot be read
   */
  public RmHttpApi(ActorSystem<?> system, RmCore core, SecuritySettings security, HttpLimits limits) {
    this.core = core;
    this.limits = limits;
    this.metrics = new RmMetrics(() -> ClusterMetrics.measure(core));
    UserGroups groups = UserGroups.of(security.groups(), system.dispatchers().lookup(DispatcherSelector.blocking()));
    this.users = new UserAccess(UserAuthenticators.from(security), groups);
    this.groupsRefresh = GroupsRefresh.start(system, groups);
    this.gate = new ServeGate(new ClusterStanding(system),
        JournalHealth.start(system, JournalProbeSettings.from(system.settings().config())));
  }

  public Route routes() {
    // Every route behind the gate (a member that may not serve refuses before anything is read);
    // the NM and AM protocols first: most requests are heartbeats and allocate calls.
    return RequestGuard.guard(limits, () -> gate.routes(() -> concat(new ProtocolRoutes(core).routes(),
        new ClusterRoutes(core, users, groupsRefresh).routes(), new PrometheusRoute(metrics, users).routes())));
  }
}
