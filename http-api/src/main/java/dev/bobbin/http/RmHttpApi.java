package dev.bobbin.http;

import dev.bobbin.config.HttpLimits;
import dev.bobbin.core.RmCore;
import dev.bobbin.http.server.RequestGuard;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The routes of an RM member's HTTP server (bound by {@code HttpServers}): YARN's REST API, the NM and AM
 * protocols, and metrics.
 */
public final class RmHttpApi extends AllDirectives {
  private final RmCore core;
  private final HttpLimits limits;
  private final RmMetrics metrics;

  /** One per RM member: it holds the member's meter registry. */
  public RmHttpApi(RmCore core, HttpLimits limits) {
    this.core = core;
    this.limits = limits;
    this.metrics = new RmMetrics(() -> ClusterMetrics.measure(core));
  }

  public Route routes() {
    // The NM and AM protocols first: most requests are heartbeats and allocate calls.
    return RequestGuard.guard(limits, () -> concat(new ProtocolRoutes(core).routes(), new ClusterRoutes(core).routes(),
        new PrometheusRoute(metrics).routes()));
  }
}
