package dev.bobbin.http;

import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/** {@code GET /metrics} in the Prometheus text format, to authenticated callers. */
final class PrometheusRoute extends AllDirectives {
  private final RmMetrics metrics;
  private final UserAccess users;

  PrometheusRoute(RmMetrics metrics, UserAccess users) {
    this.metrics = metrics;
    this.users = users;
  }

  Route routes() {
    return path("metrics", () -> users.require(caller -> get(() -> completeWithFuture(metrics.scrape()
        .thenApply(text -> HttpResponse.create().withEntity(ContentTypes.TEXT_PLAIN_UTF8, text))
        .exceptionally(JsonResponses::failure)))));
  }
}
