package dev.bobbin.http;

import dev.bobbin.core.RmCore;
import java.util.Map;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/** {@code GET /metrics} in Prometheus text format, from the same figures as the cluster metrics. */
final class PrometheusRoute extends AllDirectives {
  private final RmCore core;

  PrometheusRoute(RmCore core) {
    this.core = core;
  }

  Route routes() {
    return path("metrics", () -> get(() -> completeWithFuture(core.applications().thenCombine(core.usage(),
        (apps, u) -> HttpResponse.create().withEntity(ContentTypes.TEXT_PLAIN_UTF8, render(ClusterMetrics.of(apps, u))))
        .exceptionally(JsonResponses::failure))));
  }

  static String render(Map<String, Object> metrics) {
    StringBuilder sb = new StringBuilder();
    for (var e : metrics.entrySet()) {
      String name = "bobbin_cluster_" + snake(e.getKey());
      sb.append("# TYPE ").append(name).append(e.getKey().startsWith("total") && e.getKey().endsWith("Start")
          ? " counter\n" : " gauge\n");
      sb.append(name).append(' ').append(e.getValue()).append('\n');
    }
    return sb.toString();
  }

  private static String snake(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase();
  }
}
