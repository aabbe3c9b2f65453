package dev.bobbin.node.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.NmCgroupsSettings;
import dev.bobbin.node.cgroups.CgroupMounts.Mount;
import dev.bobbin.node.container.ContainerActor;
import dev.bobbin.node.container.ContainerProcess;
import dev.bobbin.node.container.LaunchSpec;
import dev.bobbin.node.container.LocalProcessLauncher;
import dev.bobbin.node.container.NmContainerState;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.recovery.ContainerRecovery;
import dev.bobbin.node.recovery.StoredContainer;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a NodeManager says at start about cgroups, and what it does without them. The v2 tree is a
 * directory laid out as cgroupfs v2 presents itself: a real v2 hierarchy with memory and cpu is not
 * available on the build machine.
 */
class NodeCgroupsTest {
  static final ActorTestKit testKit = ActorTestKit.create();
  @TempDir Path root;

  @AfterAll
  static void shutDown() {
    testKit.shutdownTestKit();
  }

  private NodeCgroups start(NmCgroupsSettings settings, ProcessLauncher launcher, List<Mount> mounts) {
    AtomicReference<NodeCgroups> started = new AtomicReference<>();
    testKit.spawn(Behaviors.setup(ctx -> {
      started.set(NodeCgroups.start(ctx, settings, "h:1", launcher, () -> mounts));
      return Behaviors.empty();
    }));
    testKit.createTestProbe().awaitAssert(() -> assertThat(started.get()).isNotNull());
    return started.get();
  }

  private Mount v2(String controllers) throws IOException {
    Path mount = Files.createDirectories(root.resolve("unified"));
    Files.writeString(mount.resolve("cgroup.controllers"), controllers);
    return new Mount(mount, true, Set.of("rw"));
  }

  /**
   * Runs a container through the launcher, which joins the process to its cgroup before its command
   * runs; here the cgroup's files are plain files, so its procs file keeps the pid written into it.
   */
  private Path launchThrough(NodeCgroups cgroups, String containerId, Resource resource) throws IOException {
    LaunchSpec spec = new LaunchSpec(containerId, "application_1_0001", "alice", resource, Map.of(),
        List.of("echo ran"), root.resolve("work").resolve(containerId), root.resolve("log").resolve(containerId));
    ContainerProcess process = cgroups.launcher().launch(spec);
    assertThat(process.onExit().toCompletableFuture().join()).isZero();
    assertThat(Files.readString(spec.logDir().resolve(LaunchSpec.STDOUT))).isEqualTo("ran\n");
    Path cgroup = root.resolve("unified/bobbin/h_1").resolve(containerId);
    assertThat(Files.readString(cgroup.resolve("cgroup.procs")).trim()).isEqualTo(Long.toString(process.pid()));
    return cgroup;
  }

  private static final ProcessLauncher CANNOT_PLACE = spec -> {
    throw new IOException("not started in this test");
  };

  @Test
  void switchedOffContainersGetNoCgroupsAndTheStartLogSaysTheMonitorHoldsThem() throws IOException {
    List<Mount> usable = List.of(v2("cpu memory"));
    NodeCgroups cgroups = LoggingTestKit.info("Container cgroups: none (bobbin.nm.cgroups.enabled = false); the "
            + "container monitor alone holds containers to their memory")
        .expect(testKit.system(), () -> start(NmCgroupsSettings.DISABLED, CANNOT_PLACE, usable));

    assertThat(cgroups.launcher()).isSameAs(CANNOT_PLACE);
    assertThat(cgroups.enforcesMemory()).isFalse();
    assertThat(root.resolve("unified/bobbin")).doesNotExist();
  }

  @Test
  void withoutUsableCgroupsTheStartLogSaysWhyAndContainersEndAsTheyEnded() throws IOException {
    List<Mount> mounts = List.of(v2("hugetlb"));
    NodeCgroups cgroups = LoggingTestKit.warn("Container cgroups: none usable though bobbin.nm.cgroups.enabled = true "
            + "(cgroup v2 at " + root.resolve("unified") + " offers controllers [hugetlb], not memory and cpu; no cgroup"
            + " v1 hierarchy holds the memory controller); the container monitor alone holds containers to their memory")
        .expect(testKit.system(), () -> start(new NmCgroupsSettings(true, "bobbin", true), CANNOT_PLACE, mounts));

    assertThat(cgroups.launcher()).isSameAs(CANNOT_PLACE);
    assertThat(cgroups.enforcesMemory()).isFalse();
    assertThat(cgroups.memoryUsage("container_1")).isEmpty();
    var end = new ContainerActor.Finished("container_1", 137, "killed", false);
    assertThat(cgroups.ended(end)).isSameAs(end);
  }

  @Test
  void aLauncherThatCannotRunAnythingBeforeTheCommandFallsBackToTheMonitorAndSaysSo() throws IOException {
    List<Mount> mounts = List.of(v2("cpu memory"));
    NodeCgroups cgroups = LoggingTestKit.warn("runs nothing before a container's command")
        .expect(testKit.system(), () -> start(new NmCgroupsSettings(true, "bobbin", true), CANNOT_PLACE, mounts));

    assertThat(cgroups.enforcesMemory()).isFalse();
    assertThat(cgroups.launcher()).isSameAs(CANNOT_PLACE);
  }

  @Test
  void withCgroupsTheStartLogSaysWhichAndThatTheKernelHoldsMemorySoTheMonitorDoesNot() throws IOException {
    List<Mount> mounts = List.of(v2("cpu memory"));
    Path own = root.resolve("unified/bobbin/h_1");
    NodeCgroups cgroups = LoggingTestKit.info("Container cgroups: cgroup v2, " + own + "; each container in its own, "
            + "CPU weight from its vcores, memory limited to its allocation (bobbin.nm.resource.memory.enforced): the "
            + "kernel enforces it, so the container monitor does not check physical memory")
        .expect(testKit.system(), () -> start(new NmCgroupsSettings(true, "bobbin", true), new LocalProcessLauncher(),
            mounts));

    assertThat(cgroups.enforcesMemory()).isTrue();
    assertThat(cgroups.launcher()).isInstanceOf(LocalProcessLauncher.class);
    Path placed = launchThrough(cgroups, "container_4", Resource.of(128, 1));
    assertThat(Files.readString(placed.resolve("memory.max"))).isEqualTo("134217728");
    assertThat(Files.readString(placed.resolve("cpu.weight"))).isEqualTo("100");
    // A container the kernel killed for memory ends with -104, whatever its script's exit code.
    Path c = Files.createDirectories(own.resolve("container_1"));
    Files.writeString(c.resolve("memory.events"), "max 9\noom 1\noom_kill 1\n");
    Files.writeString(c.resolve("memory.peak"), "134217728");
    Files.writeString(c.resolve("memory.max"), "134217728");
    cgroups.launched("container_1", 77);
    var end = cgroups.ended(new ContainerActor.Finished("container_1", 137, "Container exited with 137", false));
    assertThat(end.exitStatus()).isEqualTo(ExitStatus.KILLED_EXCEEDED_PMEM);
    assertThat(end.killed()).isTrue();
    assertThat(end.diagnostics()).startsWith("Container [pid=77,containerID=container_1] ran beyond the 'PHYSICAL' "
        + "memory limit of its cgroup: the kernel killed 1 of its processes for memory. Peak usage: 128 MB of 128 MB")
        .endsWith("Exit code is 137.\nContainer exited with 137");
  }

  @Test
  void aContainerTheKernelKilledForMemoryWhileNoNodeManagerRanIsReportedSoAfterTheRestart() throws IOException {
    NodeCgroups cgroups = start(new NmCgroupsSettings(true, "bobbin", true), new LocalProcessLauncher(),
        List.of(v2("cpu memory")));
    Path own = root.resolve("unified/bobbin/h_1");
    Path killed = Files.createDirectories(own.resolve("container_6"));
    Files.writeString(killed.resolve("memory.events"), "max 4\noom 1\noom_kill 1\n");
    Files.writeString(killed.resolve("memory.max"), "134217728");
    Path fine = Files.createDirectories(own.resolve("container_7"));
    Files.writeString(fine.resolve("memory.events"), "max 0\noom 0\noom_kill 0\n");

    var oom = cgroups.recovered(new ContainerRecovery.Ended(stored("container_6"), 137, "exited with 137", false));
    var other = new ContainerRecovery.Ended(stored("container_7"), 1, "exited with 1", false);

    assertThat(oom).isInstanceOfSatisfying(ContainerRecovery.Ended.class, e -> {
      assertThat(e.exitStatus()).isEqualTo(ExitStatus.KILLED_EXCEEDED_PMEM);
      assertThat(e.killed()).isTrue();
      assertThat(e.diagnostics()).startsWith("Container [pid=88,containerID=container_6] ran beyond the 'PHYSICAL' "
          + "memory limit of its cgroup").endsWith("Exit code is 137.\nexited with 137");
    });
    assertThat(cgroups.recovered(other)).isSameAs(other);
  }

  private static StoredContainer stored(String containerId) {
    return new StoredContainer(containerId, "application_1_0001", "alice", Resource.of(128, 1), "/work", "/logs", 0,
        NmContainerState.RUNNING, 88, 1, "boot-1", null, "", ExitStatus.INVALID, "", 0);
  }

  @Test
  void withMemoryNotEnforcedTheMonitorKeepsItsCheckAndNoLimitIsWritten() throws IOException {
    List<Mount> mounts = List.of(v2("cpu memory"));
    NodeCgroups cgroups = LoggingTestKit.info("memory not limited (bobbin.nm.resource.memory.enforced = false): the "
            + "container monitor checks it")
        .expect(testKit.system(), () -> start(new NmCgroupsSettings(true, "bobbin", false), new LocalProcessLauncher(),
            mounts));

    assertThat(cgroups.enforcesMemory()).isFalse();
    Path c = launchThrough(cgroups, "container_5", Resource.of(512, 2));
    assertThat(c.resolve("memory.max")).doesNotExist();
    assertThat(Files.readString(c.resolve("cpu.weight"))).isEqualTo("200");
  }
}
