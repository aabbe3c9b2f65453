package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.config.NmHealthSettings;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A NodeManager's own health, as its heartbeats, its REST API and its containers show it. */
class NodeHealthIT {
  @TempDir Path workDir;
  NmFixture fx;

  @AfterEach
  void stop() {
    if (fx != null) fx.close();
  }

  private static NmHealthSettings checks(Optional<Path> script, long minFreeMb) {
    return new NmHealthSettings(script, List.of(), Duration.ofMillis(100), Duration.ofSeconds(5), true,
        Duration.ofMillis(100), 0.25, 100.0, minFreeMb);
  }

  private NodeHeartbeatRequest lastHeartbeat(TestingRm rm) {
    return rm.heartbeats.get(rm.heartbeats.size() - 1);
  }

  @Test
  void heartbeatsAndTheNodeInfoCarryTheScriptsVerdictAndItsTime() throws Exception {
    fx = new NmFixture(workDir);
    Path verdict = workDir.resolve("verdict");
    Path script = workDir.resolve("health.sh");
    Files.writeString(script, "#!/bin/sh\ncat " + verdict + " 2>/dev/null\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    TestingRm rm = fx.rm();
    NodeManager nm = NodeManager.start(fx.settings(List.of(rm.url()), checks(Optional.of(script), 0)));
    fx.closeables.add(0, nm);
    NmHttp http = new NmHttp(nm.httpAddress());
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    assertThat(lastHeartbeat(rm).healthy()).isTrue();

    long before = System.currentTimeMillis();
    Files.writeString(verdict, "ERROR /data1 went read-only\n");
    fx.eventually(() -> {
      NodeHeartbeatRequest hb = lastHeartbeat(rm);
      assertThat(hb.healthy()).isFalse();
      assertThat(hb.healthReport()).isEqualTo("ERROR /data1 went read-only");
      assertThat(hb.lastHealthReportTime()).isGreaterThanOrEqualTo(before);
    });
    JsonNode info = http.getJson("/ws/v1/node/info").path("nodeInfo");
    assertThat(info.path("nodeHealthy").asBoolean()).isFalse();
    assertThat(info.path("healthReport").asText()).isEqualTo("ERROR /data1 went read-only");
    assertThat(info.path("lastNodeUpdateTime").asLong()).isGreaterThanOrEqualTo(before);

    Files.writeString(verdict, "");
    fx.eventually(() -> assertThat(lastHeartbeat(rm).healthy()).isTrue());
    assertThat(lastHeartbeat(rm).healthReport()).isEmpty();
  }

  @Test
  void onFullDisksTheNodeIsUnhealthyAndANewContainerEndsWithDisksFailed() {
    fx = new NmFixture(workDir);
    TestingRm rm = fx.rm();
    // No disk has this much free space: every directory is full from the first check on.
    NodeManager nm = NodeManager.start(fx.settings(List.of(rm.url()), checks(Optional.empty(), Long.MAX_VALUE / 2)));
    fx.closeables.add(0, nm);
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    assertThat(rm.heartbeats.get(0).healthy()).as("unhealthy from its first heartbeat").isFalse();
    assertThat(rm.heartbeats.get(0).healthReport()).contains("1/1 local-dirs failed: ").contains("1/1 log-dirs failed: ")
        .contains("MB free, below the limit of ");

    String id = containerId(newApplicationId(), 1);
    assertThat(fx.startOne(new NmHttp(nm.httpAddress()), rm, nm, id, "echo never").succeeded()).containsExactly(id);
    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.DISKS_FAILED, ContainerStatus::exitStatus)
        .satisfies(s -> assertThat(s.diagnostics()).startsWith("Most of the disks failed. 1/1 local-dirs failed: ")));
  }
}
