package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.directory.AppCounts;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.WireJson;
import dev.bobbin.protocol.rest.ClusterMetricsInfo;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RmMetricsTest {
  private static final List<AppState> EACH_STATE =
      List.of(AppState.ACCEPTED, AppState.RUNNING, AppState.FINISHED, AppState.FAILED, AppState.KILLED);

  @Test
  void everyExportedMetricHasHelpAndEveryClusterFigureIsMeasured() {
    AtomicReference<ClusterMetricsInfo> cluster = new AtomicReference<>(figures(1));
    RmMetrics metrics = new RmMetrics(() -> CompletableFuture.completedFuture(cluster.get()));

    String first = metrics.scrape().toCompletableFuture().join();
    cluster.set(figures(2));
    String second = metrics.scrape().toCompletableFuture().join();

    assertThat(undocumentedFamilies(second)).isEmpty();
    Map<String, String> before = clusterSamples(first);
    Map<String, String> after = clusterSamples(second);
    // A cluster that changed in every figure changes every metric: none is a constant.
    after.forEach((sample, value) -> assertThat(value).as(sample).isNotEqualTo(before.get(sample)));
    assertThat(after.keySet()).containsExactlyInAnyOrder(
        "bobbin_cluster_apps_submitted", "bobbin_cluster_apps_completed", "bobbin_cluster_apps_pending",
        "bobbin_cluster_apps_running", "bobbin_cluster_apps_failed", "bobbin_cluster_apps_killed",
        "bobbin_cluster_containers_allocated", "bobbin_cluster_available_mb", "bobbin_cluster_allocated_mb",
        "bobbin_cluster_total_mb", "bobbin_cluster_available_virtual_cores",
        "bobbin_cluster_allocated_virtual_cores", "bobbin_cluster_total_virtual_cores", "bobbin_cluster_total_nodes",
        "bobbin_cluster_active_nodes", "bobbin_cluster_lost_nodes", "bobbin_cluster_unhealthy_nodes",
        "bobbin_cluster_decommissioning_nodes", "bobbin_cluster_decommissioned_nodes", "bobbin_cluster_shutdown_nodes",
        "bobbin_cluster_allocations_total");
    assertThat(after).containsEntry("bobbin_cluster_apps_submitted", "10.0")
        // Completed is FINISHED alone, as in YARN: failed and killed applications are counted apart.
        .containsEntry("bobbin_cluster_apps_completed", "2.0")
        .containsEntry("bobbin_cluster_apps_failed", "2.0")
        .containsEntry("bobbin_cluster_apps_killed", "2.0")
        .containsEntry("bobbin_cluster_available_mb", "6144.0");
    assertThat(second).contains("# TYPE bobbin_cluster_apps_submitted gauge")
        .contains("# TYPE bobbin_cluster_allocations_total counter")
        .contains("jvm_threads_live_threads");
  }

  @Test
  void theYarnJsonKeepsItsFieldsWhileMetricsLeaveOutWhatIsNotMeasured() {
    JsonNode yarn = WireJson.mapper().valueToTree(figures(1));

    assertThat(yarn.size()).isEqualTo(26);
    assertThat(yarn.path("reservedMB").asInt(-1)).isZero();
    assertThat(yarn.path("unhealthyNodes").asInt(-1)).isEqualTo(1);
    assertThat(yarn.path("decommissioningNodes").asInt(-1)).isEqualTo(1);
    assertThat(yarn.path("decommissionedNodes").asInt(-1)).isEqualTo(1);
    assertThat(yarn.path("shutdownNodes").asInt(-1)).isEqualTo(1);
    assertThat(yarn.path("totalNodes").asInt(-1))
        .as("active, lost, unhealthy, decommissioning, decommissioned and shut down").isEqualTo(6);
    assertThat(yarn.path("appsSubmitted").asInt()).isEqualTo(5);
    assertThat(yarn.path("totalAllocationsSinceStart").asLong()).isEqualTo(10);
    String text = new RmMetrics(() -> CompletableFuture.completedFuture(figures(1))).scrape()
        .toCompletableFuture().join();
    assertThat(clusterSamples(text).keySet()).noneMatch(name -> name.matches(
        ".*(reserved|containers_pending|rebooted).*"));
  }

  /** {@code k} applications in each state, and {@code k} nodes in each counted node state. */
  private static ClusterMetricsInfo figures(int k) {
    Map<AppState, Long> apps = new EnumMap<>(AppState.class);
    Map<String, SchedulerProtocol.AppUsage> usage = new HashMap<>();
    for (AppState state : EACH_STATE) {
      apps.put(state, (long) k);
      for (int i = 0; i < k; i++) {
        String id = "application_1_" + state.ordinal() + "00" + i;
        if (state == AppState.RUNNING) usage.put(id, new SchedulerProtocol.AppUsage(Resource.of(1024, 1), 2 * i + 1, 0.5f));
      }
    }
    var report = new SchedulerProtocol.UsageReport(usage, Resource.of(4096L * k, 4 * k), Resource.of(1024L * k, k), k, k,
        k, k, k, k, 10L * k);
    return ClusterMetrics.of(new AppCounts(apps), report);
  }

  private static List<String> undocumentedFamilies(String exposition) {
    List<String> missing = new ArrayList<>();
    for (String line : exposition.split("\n")) {
      if (!line.startsWith("# TYPE ")) continue;
      String family = line.split(" ")[2];
      if (!exposition.matches("(?s).*# HELP " + Pattern.quote(family) + " \\S.*")) missing.add(family);
    }
    return missing;
  }

  private static Map<String, String> clusterSamples(String exposition) {
    Map<String, String> samples = new TreeMap<>();
    for (String line : exposition.split("\n")) {
      if (!line.startsWith("bobbin_")) continue;
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), line.substring(space + 1));
    }
    return samples;
  }
}
