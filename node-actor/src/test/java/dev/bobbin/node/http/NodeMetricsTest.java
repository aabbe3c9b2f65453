package dev.bobbin.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.NodeIdentity;
import dev.bobbin.node.NodeView;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.health.NodeHealth;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class NodeMetricsTest {
  private static final NodeIdentity NODE = new NodeIdentity("127.0.0.1", 8042);

  @Test
  void everyExportedMetricHasHelpAndEveryNodeFigureComesFromTheNode() {
    NodeMetrics metrics = new NodeMetrics();

    String first = metrics.scrape(view(NodeView.RmLinkState.REGISTERING, 1, 1));
    String second = metrics.scrape(view(NodeView.RmLinkState.REGISTERED, 3, 2));

    assertThat(undocumentedFamilies(second)).isEmpty();
    Map<String, String> before = nodeSamples(first);
    Map<String, String> after = nodeSamples(second);
    assertThat(after.keySet()).containsExactlyInAnyOrder(
        "bobbin_nm_containers_running{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_containers_launched_total{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_containers_completed_total{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_allocated_memory_mb{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_allocated_vcores{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_capacity_memory_mb{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_capacity_vcores{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_registered{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_healthy{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_heartbeats_total{node=\"127.0.0.1:8042\"}",
        "bobbin_nm_rm_call_failures_total{node=\"127.0.0.1:8042\"}");
    // A node that changed in every figure changes every metric: none is a constant.
    after.forEach((sample, value) -> assertThat(value).as(sample).isNotEqualTo(before.get(sample)));
    assertThat(after).containsEntry("bobbin_nm_containers_running{node=\"127.0.0.1:8042\"}", "3.0")
        .containsEntry("bobbin_nm_registered{node=\"127.0.0.1:8042\"}", "1.0")
        .containsEntry("bobbin_nm_healthy{node=\"127.0.0.1:8042\"}", "1.0");
    assertThat(second).contains("# TYPE bobbin_nm_containers_running gauge")
        .contains("# TYPE bobbin_nm_containers_launched_total counter")
        .contains("jvm_memory_used_bytes");
  }

  /** {@code running} live containers and one finished; every other figure scales with {@code k}. */
  private static NodeView view(NodeView.RmLinkState link, int running, int k) {
    ContainerLayout layout = new ContainerLayout(Path.of("work"), NODE.nodeId());
    List<ContainerRecord> containers = new ArrayList<>();
    for (int i = 0; i <= running; i++) {
      String id = "container_1_0001_01_00000" + i;
      ContainerRecord c = ContainerRecord.created(id, "application_1_0001", "alice", Resource.of(512, 1),
          layout.dirsFor("alice", "application_1_0001", id), 0).running();
      containers.add(i == 0 ? c.finished(0, "", false, 1) : c);
    }
    return new NodeView(NODE, "test", link, "http://rm", 0, 0, Resource.of(4096L * k, 4 * k),
        Resource.of(512L * running, running), containers, Set.of(), 10L * k, 5L * k, 100L * k, 7L * k,
        link == NodeView.RmLinkState.REGISTERED ? NodeHealth.healthy(1) : NodeHealth.unhealthy("disk full", 0),
        new dev.bobbin.node.monitor.ContainerUsages());
  }

  /** Families with a TYPE line and no HELP line carrying text. */
  private static List<String> undocumentedFamilies(String exposition) {
    List<String> missing = new ArrayList<>();
    for (String line : exposition.split("\n")) {
      if (!line.startsWith("# TYPE ")) continue;
      String family = line.split(" ")[2];
      if (!exposition.matches("(?s).*# HELP " + Pattern.quote(family) + " \\S.*")) missing.add(family);
    }
    return missing;
  }

  private static Map<String, String> nodeSamples(String exposition) {
    Map<String, String> samples = new TreeMap<>();
    for (String line : exposition.split("\n")) {
      if (!line.startsWith("bobbin_")) continue;
      int space = line.lastIndexOf(' ');
      samples.put(line.substring(0, space), line.substring(space + 1));
    }
    return samples;
  }
}
