package dev.bobbin.node;

import static dev.bobbin.node.NmFixture.containerId;
import static dev.bobbin.node.NmFixture.newApplicationId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.node.server.NodeManager;
import dev.bobbin.protocol.ContainerState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.WirePaths;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Killing containers: the whole process tree goes, and the reported status names who asked. */
class ContainerKillIT {
  /** Starts a child in the background, records its pid in the work dir and waits for it. */
  static final String SLEEP_WITH_CHILD = "sleep 600 & echo $! > child.pid; wait";
  /** The child ignores SIGTERM, so only the SIGKILL after the grace period ends it. */
  static final String STUBBORN_CHILD = "bash -c \"trap '' TERM; sleep 600\" & echo $! > child.pid; wait";

  @TempDir static Path workDir;
  static NmFixture fx;
  static TestingRm rm;
  static NodeManager nm;
  static NmHttp http;

  @BeforeAll
  static void startNode() {
    fx = new NmFixture(workDir);
    rm = fx.rm();
    nm = fx.registeredNm(rm);
    http = new NmHttp(nm.httpAddress());
  }

  @AfterAll
  static void stopNode() {
    fx.close();
  }

  @Test
  void stopByApplicationMasterKillsTheTreeAndReportsKilledByAppMaster() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, SLEEP_WITH_CHILD);
    List<ProcessHandle> tree = runningTree(id);

    StopContainersResponse stop = http.stop(NmFixture.stopRequest(rm.containerToken(id, nm.nodeId())));
    assertThat(stop.succeeded()).containsExactly(id);
    assertThat(stop.failed()).isEmpty();

    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_BY_APPMASTER, ContainerStatus::exitStatus));
    assertGone(tree);
    JsonNode container = http.getJson(WirePaths.NM_CONTAINERS + "/" + id).get("container");
    assertThat(container.get("state").asText()).isEqualTo("DONE");
    assertThat(container.get("exitCode").asInt()).isEqualTo(ExitStatus.KILLED_BY_APPMASTER);
  }

  @Test
  void childIgnoringSigtermIsKilledAfterTheGracePeriod() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, STUBBORN_CHILD);
    List<ProcessHandle> tree = runningTree(id);

    http.stop(NmFixture.stopRequest(rm.containerToken(id, nm.nodeId())));

    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ExitStatus.KILLED_BY_APPMASTER, ContainerStatus::exitStatus));
    assertGone(tree);
  }

  @Test
  void containersToCleanupKillsAndReportsKilledByResourceManager() {
    String id = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, id, SLEEP_WITH_CHILD);
    List<ProcessHandle> tree = runningTree(id);

    rm.containersToCleanup.add(id);

    fx.eventually(() -> assertThat(rm.lastReported(id)).get()
        .returns(ContainerState.COMPLETE, ContainerStatus::state)
        .returns(ExitStatus.KILLED_BY_RESOURCEMANAGER, ContainerStatus::exitStatus));
    assertGone(tree);
  }

  @Test
  void aContainerTheRmKilledBeforeItStartedIsRefusedWhenItsStartArrives() {
    String id = containerId(newApplicationId(), 1);
    rm.containersToCleanup.add(id);
    int before = rm.heartbeats.size();
    // Two heartbeats on, the node has handled the response that carried the kill.
    fx.eventually(() -> {
      assertThat(rm.containersToCleanup).isEmpty();
      assertThat(rm.heartbeats.size()).isGreaterThan(before + 1);
    });

    StartContainersResponse late = fx.startOne(http, rm, nm, id, SLEEP_WITH_CHILD);

    assertThat(late.succeeded()).isEmpty();
    assertThat(late.failed()).singleElement().satisfies(f -> {
      assertThat(f.containerId()).isEqualTo(id);
      assertThat(f.message()).contains("killed by the ResourceManager before it started");
    });
  }

  @Test
  void applicationsToCleanupKillsEveryContainerOfTheApp() {
    String app = newApplicationId();
    String first = containerId(app, 1);
    String second = containerId(app, 2);
    String other = containerId(newApplicationId(), 1);
    fx.startOne(http, rm, nm, first, SLEEP_WITH_CHILD);
    fx.startOne(http, rm, nm, second, SLEEP_WITH_CHILD);
    fx.startOne(http, rm, nm, other, SLEEP_WITH_CHILD);
    List<ProcessHandle> tree = Stream.concat(runningTree(first).stream(), runningTree(second).stream()).toList();
    runningTree(other);

    rm.applicationsToCleanup.add(app);

    fx.eventually(() -> {
      assertThat(rm.lastReported(first)).get().returns(ExitStatus.KILLED_AFTER_APP_COMPLETION, ContainerStatus::exitStatus);
      assertThat(rm.lastReported(second)).get().returns(ExitStatus.KILLED_AFTER_APP_COMPLETION, ContainerStatus::exitStatus);
    });
    assertGone(tree);
    assertThat(rm.lastReported(other)).get().returns(ContainerState.RUNNING, ContainerStatus::state);
    assertThat(http.getJson("/ws/v1/node/apps/" + app).get("app").get("state").asText()).isEqualTo("FINISHED");

    http.stop(NmFixture.stopRequest(rm.containerToken(other, nm.nodeId())));
    fx.eventually(() -> assertThat(rm.lastReported(other)).get().returns(ContainerState.COMPLETE, ContainerStatus::state));
  }

  @Test
  void stoppingTheNodeManagerKillsItsContainers() throws Exception {
    TestingRm ownRm = fx.rm();
    NodeManager ownNm = fx.registeredNm(ownRm);
    NmHttp ownHttp = new NmHttp(ownNm.httpAddress());
    String id = containerId(newApplicationId(), 1);
    fx.startOne(ownHttp, ownRm, ownNm, id, SLEEP_WITH_CHILD);
    List<ProcessHandle> tree = runningTree(id, ownNm);

    ownNm.close();

    assertGone(tree);
  }

  /** Waits until the container and its recorded child run; returns both processes. */
  private static List<ProcessHandle> runningTree(String containerId) {
    return runningTree(containerId, nm);
  }

  private static List<ProcessHandle> runningTree(String containerId, NodeManager node) {
    fx.eventually(() -> assertThat(workDirOf(node, containerId).resolve("child.pid")).content().isNotBlank());
    Path childPid = workDirOf(node, containerId).resolve("child.pid");
    ProcessHandle child = ProcessHandle.of(Long.parseLong(read(childPid).trim())).orElseThrow();
    ProcessHandle root = child.parent().orElseThrow();
    assertThat(root.isAlive()).isTrue();
    return Stream.concat(Stream.of(root, child), child.descendants()).toList();
  }

  private static Path workDirOf(NodeManager node, String containerId) {
    try (Stream<Path> found = Files.find(workDir, 8,
        (p, a) -> a.isDirectory() && p.getFileName().toString().equals(containerId) && p.toString().contains("appcache"))) {
      return found.findFirst().orElseGet(() -> {
        throw new AssertionError("no work dir for " + containerId + " of " + node.nodeId());
      });
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static void assertGone(List<ProcessHandle> tree) {
    fx.eventually(() -> assertThat(tree).allSatisfy(p -> assertThat(running(p)).as("pid %d runs", p.pid()).isFalse()));
  }

  /** A zombie has exited; it waits only for a slow init to reap it. */
  private static boolean running(ProcessHandle p) {
    if (!p.isAlive()) return false;
    try {
      String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException e) {
      return false;
    }
  }
}
