package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Work-preserving resync: the NM re-registers with every container it has and kills none. */
class ResyncIT {
  @RegisterExtension final NmFixture fx = NmFixture.perTest();

  @Test
  void reRegistersWithRunningAndUnacknowledgedContainersAndKeepsThemRunning() {
    TestingRm rm = fx.rm();
    rm.acknowledgeCompleted = false;
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String running = containerId(app, 1);
    String done = containerId(app, 2);
    fx.startOne(http, rm, nm, running, "sleep 600");
    fx.startOne(http, rm, nm, done, "exit 4");
    fx.eventually(() -> {
      assertThat(rm.lastReported(running)).get().returns(ContainerState.RUNNING, ContainerStatus::state);
      assertThat(rm.lastReported(done)).get().returns(4, ContainerStatus::exitStatus);
    });
    long pid = rootPid(http, running);

    rm.nextAction.set(NodeAction.RESYNC);

    fx.eventually(() -> assertThat(rm.registrations).hasSize(2));
    RegisterNodeRequest again = rm.registrations.get(1);
    assertThat(again.nodeId()).isEqualTo(nm.nodeId());
    assertThat(again.containerStatuses()).extracting(ContainerStatus::containerId, ContainerStatus::state,
            ContainerStatus::exitStatus)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(running, ContainerState.RUNNING, ExitStatus.INVALID),
            org.assertj.core.groups.Tuple.tuple(done, ContainerState.COMPLETE, 4));
    assertThat(again.runningApplications()).containsExactly(app);
    int afterResync = rm.heartbeats.size();
    fx.eventually(() -> assertThat(rm.heartbeats).hasSizeGreaterThan(afterResync + 2));
    assertThat(rm.responseIdMismatches).hasValue(0);
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
    assertThat(http.getJson("/ws/v1/node/containers/" + running).at("/container/state").asText()).isEqualTo("RUNNING");

    // Once the RM acknowledges the completion, the NM stops reporting it.
    rm.acknowledgeCompleted = true;
    fx.eventually(() -> assertThat(rm.heartbeats.get(rm.heartbeats.size() - 1).containerStatuses())
        .extracting(ContainerStatus::containerId).containsExactly(running));
  }

  @Test
  void reRegistersWithApplicationsWhoseContainersFinishedUntilTheRmCleansThemUp() {
    TestingRm rm = fx.rm();
    NodeManager nm = fx.registeredNm(rm);
    NmHttp http = new NmHttp(nm.httpAddress());
    String app = newApplicationId();
    String done = containerId(app, 1);
    fx.startOne(http, rm, nm, done, "exit 0");
    fx.eventually(() -> assertThat(rm.lastReported(done)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));

    // The RM may not know this node ran the application (a member that took over knows live containers only).
    rm.nextAction.set(NodeAction.RESYNC);
    fx.eventually(() -> assertThat(rm.registrations).hasSize(2));
    assertThat(rm.registrations.get(1).runningApplications()).containsExactly(app);

    rm.applicationsToCleanup.add(app);
    fx.eventually(() -> assertThat(http.getJson("/ws/v1/node/apps/" + app).at("/app/state").asText())
        .isEqualTo("FINISHED"));
    rm.nextAction.set(NodeAction.RESYNC);
    fx.eventually(() -> assertThat(rm.registrations).hasSize(3));
    assertThat(rm.registrations.get(2).runningApplications()).isEmpty();
  }

  /** The pid of the container's root process: the bash running in the container's work dir. */
  private static long rootPid(NmHttp http, String containerId) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().command().map(c -> c.endsWith("bash")).orElse(false))
        .filter(p -> cwdOf(p).endsWith(containerId))
        .findFirst().orElseThrow().pid();
  }

  private static String cwdOf(ProcessHandle p) {
    try {
      return java.nio.file.Files.readSymbolicLink(Path.of("/proc/" + p.pid() + "/cwd")).toString();
    } catch (java.io.IOException | UnsupportedOperationException e) {
      return "";
    }
  }
}
