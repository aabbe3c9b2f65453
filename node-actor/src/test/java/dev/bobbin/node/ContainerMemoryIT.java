package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static dev.bobbin.node.NmFixture.startRequest;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The container monitor holds each container to its memory, measured from its process tree in /proc. */
class ContainerMemoryIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();

  private NodeManager nm(TestingRm rm, boolean pmemChecked) {
    return fx.registeredNm(rm, ConfigFactory.parseString("bobbin.nm.container-monitor { interval = 200ms, "
        + "pmem-check-enabled = " + pmemChecked + " }"));
  }

  /** {@code tail} keeps the one endless line it is fed: 600 MB resident, while the pipe stays open. */
  private static final String HOG = "{ head -c 629145600 /dev/zero; sleep 120; } | tail";

  private static String start(NmHttp http, TestingRm rm, NodeManager nm, String command) {
    String id = containerId(newApplicationId(), 1);
    String token = rm.containerToken(id, nm.nodeId(), "alice", Resource.of(256, 1),
        System.currentTimeMillis() + 600_000);
    assertThat(http.start(startRequest(token, command)).succeeded()).containsExactly(id);
    return id;
  }

  @Test
  void aContainerOverItsPhysicalMemoryIsKilledWithExitStatusMinus104AndSaysWhy() {
    TestingRm rm = fx.rm();
    NodeManager nm = nm(rm, true);
    NmHttp http = new NmHttp(nm.httpAddress());
    String id = start(http, rm, nm, HOG);

    fx.eventually(Duration.ofSeconds(60), () -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_EXCEEDED_PMEM, ContainerStatus::exitStatus));
    String diagnostics = rm.lastReported(id).orElseThrow().diagnostics();
    assertThat(diagnostics)
        .contains("containerID=" + id + "] is running ")
        .contains("beyond the 'PHYSICAL' memory limit. Current usage: ")
        .contains("of 256 MB physical memory used")
        .contains("Dump of the process-tree for " + id)
        .contains("(tail)");
  }

  @Test
  void withThePhysicalCheckOffTheSameContainerRunsOnAndItsUsageShows() {
    TestingRm rm = fx.rm();
    NodeManager nm = nm(rm, false);
    NmHttp http = new NmHttp(nm.httpAddress());
    String id = start(http, rm, nm, HOG);

    fx.eventually(Duration.ofSeconds(60), () -> {
      JsonNode c = http.getJson("/ws/v1/node/containers/" + id).path("container");
      assertThat(c.path("state").asText()).isEqualTo("RUNNING");
      assertThat(c.path("physicalMemoryUsedMB").asLong()).isGreaterThan(300);
      assertThat(c.path("virtualMemoryUsedMB").asLong()).isGreaterThanOrEqualTo(c.path("physicalMemoryUsedMB").asLong());
      assertThat(c.has("cpuTimeMillis")).isTrue();
    });
    assertThat(rm.lastReported(id)).get().returns(ContainerState.RUNNING, ContainerStatus::state);
  }
}
