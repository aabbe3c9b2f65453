package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ProcessFiles;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work-preserving NodeManager restart against the fake RM: a supervised agent stops and leaves its
 * containers running; the agent started next on the same directory and port takes them back,
 * registers reporting them (and one that ended meanwhile, with its exit code), kills on request and
 * reports their ends. Its containers' directories are not taken for an earlier run's leftovers.
 */
class NmRecoveryIT {
  @TempDir Path workDir;
  NmFixture fx;
  TestingRm rm;
  int port;
  final List<Long> started = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    fx = new NmFixture(workDir);
    rm = fx.rm();
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
  }

  @AfterEach
  void tearDown() {
    fx.close();
    // Whatever a failed test left running.
    started.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
  }

  private NodeManager startNm(String recovery) {
    NmSettings s = fx.settings(List.of(rm.url()));
    NmSettings fixed = new NmSettings(s.rmAddresses(), s.hostname(), port, s.memoryMb(), s.vcores(), s.rack(),
        s.workDir(), s.heartbeatInterval(), s.killGrace(), s.http(), s.nodeCredentialFile());
    Config config = ConfigFactory.parseString("bobbin.nm.recovery { " + recovery + ", process-check-interval = 100ms }\n"
            + "bobbin.nm.container-monitor.interval = 200ms").withFallback(ConfigFactory.load());
    NodeManager nm = NodeManager.start(fixed, config);
    fx.closeables.add(0, nm);
    return nm;
  }

  private Path workDirOf(NodeManager nm, String containerId) {
    return new ContainerLayout(workDir, nm.nodeId()).dirsFor("alice", dev.bobbin.protocol.Ids
        .applicationIdOfContainer(containerId), containerId).workDir();
  }

  private long pidOf(NodeManager nm, String containerId) {
    fx.eventually(() -> assertThat(ProcessFiles.pid(workDirOf(nm, containerId), containerId)).isPresent());
    long pid = ProcessFiles.pid(workDirOf(nm, containerId), containerId).getAsLong();
    started.add(pid);
    return pid;
  }

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Test
  void aRestartedNodeTakesItsContainersBackAndReportsWhatEndedMeanwhile() throws Exception {
    NodeManager first = startNm("enabled = true, supervised = true");
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    NmHttp http = new NmHttp(first.httpAddress());
    Path release = workDir.resolve("release");
    Path failNow = workDir.resolve("fail-now");
    String app = newApplicationId();
    List<String> waiting = List.of(containerId(app, 1), containerId(app, 2), containerId(app, 3));
    String failing = containerId(app, 4);
    for (String id : waiting) fx.startOne(http, rm, first, id, "until [ -e " + release + " ]; do sleep 0.1; done");
    fx.startOne(http, rm, first, failing, "until [ -e " + failNow + " ]; do sleep 0.1; done", "exit 3");
    Map<String, Long> pids = new java.util.LinkedHashMap<>();
    for (String id : waiting) pids.put(id, pidOf(first, id));
    long failingPid = pidOf(first, failing);
    fx.eventually(() -> assertThat(rm.lastReported(failing)).get()
        .returns(ContainerState.RUNNING, ContainerStatus::state));

    first.close();
    assertThat(pids.values()).allMatch(NmRecoveryIT::alive, "left running by the supervised stop");
    Files.createFile(failNow);
    fx.eventually(() -> assertThat(alive(failingPid)).isFalse());

    int registrationsBefore = rm.registrations.size();
    NodeManager second = startNm("enabled = true");
    assertThat(second.nodeId()).isEqualTo(first.nodeId());
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(registrationsBefore));
    RegisterNodeRequest registration = rm.registrations.get(rm.registrations.size() - 1);
    Map<String, ContainerStatus> reported = registration.containerStatuses().stream()
        .collect(Collectors.toMap(ContainerStatus::containerId, st -> st));
    for (String id : waiting) assertThat(reported.get(id).state()).as(id).isEqualTo(ContainerState.RUNNING);
    assertThat(reported.get(failing).state()).isEqualTo(ContainerState.COMPLETE);
    assertThat(reported.get(failing).exitStatus()).isEqualTo(3);
    assertThat(registration.runningApplications()).containsExactly(app);
    // Not an earlier run's leftovers: the directories of the containers taken back stay.
    assertThat(workDirOf(second, waiting.get(0))).isDirectory();
    assertThat(pids.values()).allMatch(NmRecoveryIT::alive, "not killed by the restart");
    // Measured again by the container monitor.
    NmHttp secondHttp = new NmHttp(second.httpAddress());
    fx.eventually(() -> assertThat(secondHttp.getJson(WirePaths.NM_CONTAINERS + "/" + waiting.get(0))
        .path("container").path("physicalMemoryUsedMB").isNumber()).isTrue());

    // Killed on request as any other container: the whole tree goes, with the AM's exit status.
    String stopped = waiting.get(2);
    secondHttp.stop(NmFixture.stopRequest(rm.containerToken(stopped, second.nodeId())));
    fx.eventually(() -> assertThat(rm.lastReported(stopped)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_BY_APPMASTER, ContainerStatus::exitStatus));
    assertThat(alive(pids.get(stopped))).isFalse();

    Files.createFile(release);
    for (String id : waiting.subList(0, 2)) {
      fx.eventually(() -> assertThat(rm.lastReported(id)).get()
          .returns(ContainerState.COMPLETE, ContainerStatus::state)
          .returns(0, ContainerStatus::exitStatus));
    }
    // Acknowledged by the RM, their records are dropped from the store.
    Path store = workDir.resolve(second.nodeId().replace(':', '_')).resolve("recovery/containers");
    fx.eventually(() -> {
      try (var files = Files.list(store)) {
        assertThat(files).isEmpty();
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  @Test
  void anEndUnacknowledgedAndAnApplicationTheRmSaidEndedAreRememberedAcrossARestart() {
    rm.acknowledgeCompleted = false;
    NodeManager first = startNm("enabled = true, supervised = true");
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    String app = newApplicationId();
    String id = containerId(app, 1);
    fx.startOne(new NmHttp(first.httpAddress()), rm, first, id, "exit 5");
    fx.eventually(() -> assertThat(rm.lastReported(id)).get().returns(5, ContainerStatus::exitStatus));
    rm.applicationsToCleanup.add(app);
    String nodeApp = "/ws/v1/node/apps/" + app;
    fx.eventually(() -> assertThat(new NmHttp(first.httpAddress()).getJson(nodeApp).path("app").path("state").asText())
        .isEqualTo("FINISHED"));
    first.close();

    int registrationsBefore = rm.registrations.size();
    NodeManager second = startNm("enabled = true");
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(registrationsBefore));
    RegisterNodeRequest registration = rm.registrations.get(rm.registrations.size() - 1);
    assertThat(registration.containerStatuses()).singleElement()
        .returns(id, ContainerStatus::containerId)
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(5, ContainerStatus::exitStatus);
    assertThat(registration.runningApplications()).as("the RM said it ended").isEmpty();
    assertThat(new NmHttp(second.httpAddress()).getJson(nodeApp).path("app").path("state").asText())
        .isEqualTo("FINISHED");
  }

  @Test
  void withoutRecoveryARestartedNodeKnowsNoneOfTheContainersBefore() {
    NodeManager first = startNm("enabled = false");
    fx.eventually(() -> assertThat(rm.heartbeats).isNotEmpty());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(new NmHttp(first.httpAddress()), rm, first, id, "sleep 600");
    long pid = pidOf(first, id);
    first.close();
    assertThat(alive(pid)).as("a stop without recovery kills the containers").isFalse();

    int registrationsBefore = rm.registrations.size();
    startNm("enabled = false");
    fx.eventually(() -> assertThat(rm.registrations).hasSizeGreaterThan(registrationsBefore));
    assertThat(rm.registrations.get(rm.registrations.size() - 1).containerStatuses()).isEmpty();
    assertThat(workDir.resolve(first.nodeId().replace(':', '_')).resolve("recovery")).doesNotExist();
  }

  @Test
  void anEphemeralPortIsRefusedWithRecovery() {
    NmSettings s = fx.settings(List.of(rm.url()));
    Config config = ConfigFactory.parseString("bobbin.nm.recovery.enabled = true").withFallback(ConfigFactory.load());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> NodeManager.start(s, config))
        .hasMessageStartingWith("bobbin.nm.http-port:");
    assertThat(Optional.of(s.httpPort())).contains(0);
  }
}
