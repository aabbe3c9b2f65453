package dev.bobbin.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeJsonTest {
  private static SchedulerProtocol.NodeReport node(NodeState state, String report) {
    return new SchedulerProtocol.NodeReport("h:8042", "h", "h:8042", "/r", state, Resource.of(4096, 4),
        Resource.of(1024, 1), 1, 2_000L, report, 1_500L);
  }

  @Test
  void anUnhealthyNodeShowsItsReportAndWhenItsNodeManagerLastCheckedItsHealth() {
    Map<String, Object> json = NodeJson.node(node(NodeState.UNHEALTHY, "ERROR disk"));
    assertThat(json).containsEntry("state", "UNHEALTHY").containsEntry("healthReport", "ERROR disk")
        .containsEntry("lastHealthUpdate", 1_500L).containsEntry("nodeHTTPAddress", "h:8042")
        .containsEntry("numContainers", 1);
  }

  @Test
  void aLostNodeHasNoAddressToVisit() {
    assertThat(NodeJson.node(node(NodeState.LOST, ""))).containsEntry("nodeHTTPAddress", "");
  }

  @Test
  void theStatesFilterReadsUnhealthy() {
    assertThat(NodeJson.parseStates("unhealthy,RUNNING")).containsExactlyInAnyOrder(NodeState.UNHEALTHY, NodeState.RUNNING);
  }
}
