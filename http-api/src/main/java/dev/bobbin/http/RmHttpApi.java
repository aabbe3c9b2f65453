package dev.bobbin.http;

import dev.bobbin.auth.UserAuthenticators;
import dev.bobbin.auth.UserGroups;
import dev.bobbin.config.HttpLimits;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.core.RmCore;
import dev.bobbin.http.server.RequestGuard;
import dev.bobbin.config.HttpTls;
import dev.bobbin.http.serving.ClusterStanding;
import dev.bobbin.http.serving.HealthRoutes;
import dev.bobbin.http.serving.JournalHealth;
import dev.bobbin.http.serving.JournalProbeSettings;
import dev.bobbin.http.serving.MemberSignals;
import dev.bobbin.http.serving.ServeGate;
import dev.bobbin.http.serving.ShardRegions;
import java.time.Duration;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The routes of an RM member's HTTP server (bound by {@code HttpServers}): YARN's REST API and
 * metrics, whose callers the configured authenticator establishes first; the NM and AM protocols,
 * whose callers prove themselves with their own credentials. Every request is held to the limits.
 * The health checks and the cluster's management endpoints answer first; every other request
 * passes the {@link ServeGate}: only a member that is up, on the majority's side and reaches its
 * journal serves writes.
 */
public final class RmHttpApi extends AllDirectives {
  private final RmCore core;
  private final HttpLimits limits;
  private final RmMetrics metrics;
  private final UserAccess users;
  private final GroupsRefresh groupsRefresh;
  private final ServeGate gate;
  private final HealthRoutes health;
  private final ClusterManagementRoutes management;

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
    ClusterStanding standing = new ClusterStanding(system);
    JournalHealth journal = JournalHealth.start(system, JournalProbeSettings.from(system.settings().config()));
    this.gate = new ServeGate(standing, journal);
    Duration checkTimeout = system.settings().config().getDuration("pekko.management.health-checks.check-timeout");
    // A region that has not answered within most of the check's time is named, not left to its timeout.
    ShardRegions regions = new ShardRegions(Adapter.toClassic(system), checkTimeout.multipliedBy(4).dividedBy(5));
    MemberSignals.get(Adapter.toClassic(system)).install(new MemberSignals.Signals(standing, journal, regions::notUp));
    this.health = new HealthRoutes(system);
    HttpTls tls = HttpTls.from(system.settings().config());
    this.management = new ClusterManagementRoutes(system, core, users,
        tls.policy() == dev.bobbin.config.HttpPolicy.HTTP_AND_HTTPS);
  }

  public Route routes() {
    // Every route behind the gate (a member that may not serve refuses before anything is read);
    // the NM and AM protocols first: most requests are heartbeats and allocate calls.
    return RequestGuard.guard(limits, () -> concat(health.routes(), management.routes(), gate.routes(() -> concat(
        new ProtocolRoutes(core).routes(), new ClusterRoutes(core, users, groupsRefresh).routes(),
        new PrometheusRoute(metrics, users).routes()))));
  }
}
