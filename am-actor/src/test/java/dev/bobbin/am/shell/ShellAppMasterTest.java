package dev.bobbin.am.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.am.TestingNm;
import dev.bobbin.am.TestingRm;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.ContainerManagerClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToIntFunction;
import org.apache.pekko.actor.testkit.typed.annotations.JUnit5TestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestKitJUnit5Extension;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** The distributed-shell AM against a fake RM and a fake NM whose "processes" exit as scripted. */
@ExtendWith(TestKitJUnit5Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShellAppMasterTest {
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final String SHELL = "echo \"hello from $CONTAINER_ID\"";

  @JUnit5TestKit public final ActorTestKit testKit = ActorTestKit.create();
  private final List<ActorRef<ShellAppMaster.Command>> ams = new ArrayList<>();

  @AfterEach
  void stopAms() {
    ams.forEach(testKit::stop);
    ams.clear();
  }

  @Test
  void succeedsWhenEveryContainerExitsZero() throws Exception {
    try (Cluster c = new Cluster(launch -> 0)) {
      ShellAmResult result = c.run(3);

      assertThat(result).isEqualTo(new ShellAmResult(FinalApplicationStatus.SUCCEEDED, "All 3 containers exited 0", true));
      assertThat(result.exitCode()).isZero();
      assertThat(c.rm.lastFinalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(c.nm.started.values()).hasSize(3).allSatisfy(launch ->
          assertThat(launch.commands()).containsExactly(SHELL));
      assertThat(c.nm.started.values()).extracting(l -> l.environment().get(ShellAppMaster.SHELL_ID_ENV))
          .containsExactlyInAnyOrder("1", "2", "3");
      assertThat(c.rm.handedOut).hasSize(3);
    }
  }

  @Test
  void everyContainerGetsTheShippedResources() throws Exception {
    var jar = LocalResource.of("file:///shared/tool.jar", LocalResource.Type.FILE, LocalResource.Visibility.APPLICATION,
        10, 20);
    try (Cluster c = new Cluster(launch -> 0)) {
      c.run(new ShellAmArgs(SHELL, 2, Resource.of(256, 1), 0).shipping(Map.of("tool.jar", jar)));

      assertThat(c.nm.started.values()).hasSize(2).allSatisfy(launch ->
          assertThat(launch.localResources()).containsExactly(Map.entry("tool.jar", jar)));
    }
  }

  @Test
  void failsNamingEachFailedContainerAndItsExitCode() throws Exception {
    try (Cluster c = new Cluster(launch -> shellId(launch) == 2 ? 1 : 0)) {
      ShellAmResult result = c.run(3);

      String failed = c.containerOfTask(2);
      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.FAILED);
      assertThat(result.diagnostics()).isEqualTo("1 of 3 containers failed: " + failed + " exited 1");
      assertThat(result.unregistered()).isTrue();
      assertThat(c.rm.finishCalls.get(c.rm.finishCalls.size() - 1).diagnostics()).isEqualTo(result.diagnostics());
    }
  }

  @Test
  void retriesAContainerThatWasLostBeforeFinishing() throws Exception {
    Map<Integer, Integer> launchesPerTask = new ConcurrentHashMap<>();
    try (Cluster c = new Cluster(launch ->
        launchesPerTask.merge(shellId(launch), 1, Integer::sum) == 1 && shellId(launch) == 1 ? ExitStatus.ABORTED : 0)) {
      ShellAmResult result = c.run(2);

      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(c.rm.handedOut).hasSize(3);
      assertThat(launchesPerTask).containsEntry(1, 2).containsEntry(2, 1);
    }
  }

  @Test
  void retriesAContainerTheNodeManagerRefusedToStart() throws Exception {
    try (Cluster c = new Cluster(launch -> 0)) {
      String first = Ids.containerId(TestingRm.ATTEMPT_ID, 0, 2);
      c.nm.refuseStart.add(first);
      ShellAmResult result = c.run(1);

      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(c.rm.handedOut).hasSize(2);
      assertThat(c.rm.releasesSeen()).containsExactly(first);
    }
  }

  @Test
  void withKeptContainersARestartedAmAdoptsTheRunningTasksAndRunsOnlyTheOthers() throws Exception {
    try (Cluster c = new Cluster(launch -> 0)) {
      // An earlier attempt ran tasks 1 and 3 in containers asked for in their names; both still run.
      String earlier = Ids.attemptId(TestingRm.APP_ID, 1);
      for (int task : List.of(1, 3)) {
        String id = Ids.containerId(earlier, 0, 100 + task);
        c.rm.fromPreviousAttempts.add(new Container(id, "127.0.0.1:45454", c.nm.httpAddress(), Resource.of(256, 1), 0,
            "", task));
        c.rm.complete(id, 0, "");
      }
      ShellAmResult result = c.run(new ShellAmArgs(SHELL, 3, Resource.of(256, 1), 0, true));

      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.SUCCEEDED);
      assertThat(result.diagnostics()).isEqualTo("All 3 containers exited 0");
      // Only task 2 was started, in a container asked for in its name.
      assertThat(c.nm.started.values()).extracting(ShellAppMasterTest::shellId).containsExactly(2);
      assertThat(c.rm.handedOut).extracting(Container::allocationRequestId).containsExactly(2L);
    }
  }

  @Test
  void withKeptContainersAnAdoptedTaskThatFailedFailsTheApplication() throws Exception {
    try (Cluster c = new Cluster(launch -> 0)) {
      String id = Ids.containerId(Ids.attemptId(TestingRm.APP_ID, 1), 0, 7);
      c.rm.fromPreviousAttempts.add(new Container(id, "127.0.0.1:45454", c.nm.httpAddress(), Resource.of(256, 1), 0,
          "", 1));
      c.rm.complete(id, 1, "");
      ShellAmResult result = c.run(new ShellAmArgs(SHELL, 1, Resource.of(256, 1), 0, true));

      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.FAILED);
      assertThat(result.diagnostics()).isEqualTo("1 of 1 containers failed: " + id + " exited 1");
      assertThat(c.nm.started).isEmpty();
    }
  }

  @Test
  void givesUpOnATaskAfterBoundedRetries() throws Exception {
    try (Cluster c = new Cluster(launch -> ExitStatus.PREEMPTED)) {
      ShellAmResult result = c.run(1);

      assertThat(result.finalStatus()).isEqualTo(FinalApplicationStatus.FAILED);
      assertThat(c.rm.handedOut).hasSize(1 + ShellAppMaster.MAX_RETRIES_PER_TASK);
      String last = c.rm.handedOut.get(c.rm.handedOut.size() - 1).id();
      assertThat(result.diagnostics()).isEqualTo("1 of 1 containers failed: " + last + " exited -102");
    }
  }

  private static int shellId(ContainerLaunchContext launch) {
    return Integer.parseInt(launch.environment().get(ShellAppMaster.SHELL_ID_ENV));
  }

  /** A fake RM and NM wired so that each started container completes with the scripted exit code. */
  private final class Cluster implements AutoCloseable {
    final TestingNm nm;
    final TestingRm rm;

    Cluster(ToIntFunction<ContainerLaunchContext> exitCode) throws Exception {
      AtomicReference<TestingRm> rmRef = new AtomicReference<>();
      nm = new TestingNm(TestingRm.SECRET, (id, launch) -> rmRef.get().complete(id, exitCode.applyAsInt(launch), ""));
      rm = TestingRm.start(1, Map.of("127.0.0.1:45454", nm.httpAddress()));
      rmRef.set(rm);
    }

    ShellAmResult run(int containers) {
      return run(new ShellAmArgs(SHELL, containers, Resource.of(256, 1), 0));
    }

    ShellAmResult run(ShellAmArgs args) {
      TestProbe<ShellAmResult> results = testKit.createTestProbe();
      var nmClient = new ContainerManagerClient(BobbinHttp.builder().requestTimeout(Duration.ofSeconds(5)).build());
      ams.add(testKit.spawn(ShellAppMaster.create(args, rm.settings(rm.addresses()), nmClient, results.getRef())));
      ShellAmResult result = results.receiveMessage(WAIT);
      results.expectNoMessage(Duration.ofMillis(100));
      return result;
    }

    String containerOfTask(int shellId) {
      return nm.started.entrySet().stream()
          .filter(e -> shellId(e.getValue()) == shellId)
          .map(Map.Entry::getKey)
          .findFirst()
          .orElseThrow();
    }

    @Override
    public void close() {
      rm.close();
      nm.close();
    }
  }
}
