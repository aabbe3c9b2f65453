package dev.bobbin.node.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.cgroups.CgroupMounts.Mount;
import dev.bobbin.node.cgroups.ContainerCgroups.MemoryEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Detection and the cgroup files of each version. A real cgroup v2 hierarchy with the memory and
 * cpu controllers is not available on the build machine (it mounts cgroup v1), so the v2 cases lay
 * out a directory as cgroupfs v2 presents itself (cgroup.controllers, cgroup.subtree_control,
 * memory.events, ...) and check the files the NodeManager reads and writes there. The v1 path runs
 * against the kernel in ContainerCgroupsIT.
 */
class CgroupDetectionTest {
  @TempDir Path root;

  private Path v2Mount(String controllers) throws IOException {
    Path mount = Files.createDirectories(root.resolve("unified"));
    Files.writeString(mount.resolve("cgroup.controllers"), controllers + "\n");
    Files.writeString(mount.resolve("cgroup.subtree_control"), "\n");
    return mount;
  }

  @Test
  void theMountsOfProcSelfMountsAreReadWithTheirVersionAndControllers() {
    List<Mount> mounts = CgroupMounts.parse("""
        sysfs /sys sysfs rw,nosuid 0 0
        cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu,cpuacct 0 0
        cgroup2 /sys/fs/cgroup/with\\040blank cgroup2 rw,relatime 0 0
        """);
    assertThat(mounts).containsExactly(
        new Mount(Path.of("/sys/fs/cgroup/cpu"), false, Set.of("rw", "relatime", "cpu", "cpuacct")),
        new Mount(Path.of("/sys/fs/cgroup/with blank"), true, Set.of("rw", "relatime")));
  }

  @Test
  void cgroupV2WithMemoryAndCpuIsUsedAndBothAreEnabledDownToTheNodesOwnCgroup() throws IOException {
    Path mount = v2Mount("cpuset cpu io memory hugetlb pids");

    var found = CgroupDetection.detect(List.of(new Mount(mount, true, Set.of("rw"))), "bobbin", "10.0.0.5:8042");

    assertThat(found).isInstanceOf(CgroupDetection.Found.class);
    ContainerCgroups cgroups = ((CgroupDetection.Found) found).cgroups();
    Path own = mount.resolve("bobbin").resolve("10.0.0.5_8042");
    assertThat(cgroups.description()).isEqualTo("cgroup v2, " + own);
    for (Path dir : List.of(mount, mount.resolve("bobbin"), own)) {
      assertThat(Files.readString(dir.resolve("cgroup.subtree_control"))).isEqualTo("+memory +cpu");
    }
  }

  @Test
  void aV2ContainerGetsMemoryMaxAndCpuWeightAndItsEndIsReadFromMemoryEvents() throws IOException {
    Path mount = v2Mount("cpu memory");
    Files.writeString(mount.resolve("cgroup.subtree_control"), "cpu memory\n");
    ContainerCgroups cgroups = ((CgroupDetection.Found) CgroupDetection.detect(
        List.of(new Mount(mount, true, Set.of())), "yarn/nm", "h:1")).cgroups();
    Path c = mount.resolve("yarn/nm/h_1/container_1");
    // The mount's controllers were enabled already, and are left as they are.
    assertThat(Files.readString(mount.resolve("cgroup.subtree_control"))).isEqualTo("cpu memory\n");

    cgroups.create("container_1", 256L << 20, 3);

    assertThat(Files.readString(c.resolve("memory.max"))).isEqualTo("268435456");
    assertThat(Files.readString(c.resolve("cpu.weight"))).isEqualTo("300");
    assertThat(cgroups.procsFiles("container_1")).containsExactly(c.resolve("cgroup.procs"));
    assertThat(cgroups.exists("container_1")).isTrue();
    assertThat(cgroups.containers()).containsExactly("container_1");

    Files.writeString(c.resolve("cgroup.procs"), "4242\n4243\n");
    Files.writeString(c.resolve("memory.current"), "1048576\n");
    Files.writeString(c.resolve("memory.peak"), "268435456\n");
    Files.writeString(c.resolve("memory.events"), "low 0\nhigh 0\nmax 17\noom 1\noom_kill 1\noom_group_kill 0\n");
    assertThat(cgroups.pids("container_1")).containsExactly(4242L, 4243L);
    assertThat(cgroups.memoryUsage("container_1")).hasValue(1048576);
    assertThat(cgroups.memoryEvents("container_1")).isEqualTo(new MemoryEvents(1, 17, 256L << 20, 256L << 20, c));
  }

  @Test
  void aV2ContainerWithoutAMemoryLimitHasNoMemoryMaxWrittenAndItsWeightIsCapped() throws IOException {
    Path mount = v2Mount("cpu memory");
    ContainerCgroups cgroups = ((CgroupDetection.Found) CgroupDetection.detect(
        List.of(new Mount(mount, true, Set.of())), "bobbin", "h:1")).cgroups();

    cgroups.create("container_2", 0, 500);

    Path c = mount.resolve("bobbin/h_1/container_2");
    assertThat(c.resolve("memory.max")).doesNotExist();
    assertThat(Files.readString(c.resolve("cpu.weight"))).isEqualTo("10000");
    // v2 writes "max" for no limit; an older kernel has no memory.peak.
    Files.writeString(c.resolve("memory.max"), "max\n");
    assertThat(cgroups.memoryEvents("container_2")).isEqualTo(new MemoryEvents(-1, 0, -1, -1, c));
  }

  @Test
  void withoutMemoryAndCpuInV2TheV1HierarchiesAreUsedAndTheLogSaysWhyNotV2() throws IOException {
    Path v2 = v2Mount("hugetlb");
    Path memory = Files.createDirectories(root.resolve("memory"));
    Path cpu = Files.createDirectories(root.resolve("cpu"));

    var found = CgroupDetection.detect(List.of(new Mount(v2, true, Set.of("rw")),
        new Mount(memory, false, Set.of("rw", "memory")), new Mount(cpu, false, Set.of("rw", "cpu", "cpuacct"))),
        "bobbin", "h:1");

    assertThat(found).isInstanceOf(CgroupDetection.Found.class);
    assertThat(((CgroupDetection.Found) found).passedOver())
        .containsExactly("cgroup v2 at " + v2 + " offers controllers [hugetlb], not memory and cpu");
    ContainerCgroups cgroups = ((CgroupDetection.Found) found).cgroups();
    assertThat(cgroups.description())
        .isEqualTo("cgroup v1, memory " + memory.resolve("bobbin/h_1") + " and cpu " + cpu.resolve("bobbin/h_1"));
    cgroups.create("container_3", 128L << 20, 2);
    assertThat(Files.readString(memory.resolve("bobbin/h_1/container_3/memory.limit_in_bytes"))).isEqualTo("134217728");
    assertThat(Files.readString(cpu.resolve("bobbin/h_1/container_3/cpu.shares"))).isEqualTo("2048");
  }

  @Test
  void withNeitherUsableDetectionSaysWhyForEach() throws IOException {
    Path v2 = v2Mount("hugetlb pids");

    var found = CgroupDetection.detect(List.of(new Mount(v2, true, Set.of("rw")),
        new Mount(root.resolve("cpu"), false, Set.of("rw", "cpu"))), "bobbin", "h:1");

    assertThat(found).isEqualTo(new CgroupDetection.NotFound("cgroup v2 at " + v2
        + " offers controllers [hugetlb, pids], not memory and cpu; no cgroup v1 hierarchy holds the memory controller"));
    assertThat(CgroupDetection.detect(List.of(), "bobbin", "h:1"))
        .isEqualTo(new CgroupDetection.NotFound("no cgroup file system is mounted"));
  }

  @Test
  void aHierarchyTheNodeManagerCannotWriteIsPassedOverWithTheReason() throws IOException {
    Path memory = Files.createDirectories(root.resolve("memory"));
    // A file where the hierarchy's directory would go: it cannot be made.
    Files.writeString(memory.resolve("bobbin"), "");

    var found = CgroupDetection.detect(List.of(new Mount(memory, false, Set.of("memory")),
        new Mount(Files.createDirectories(root.resolve("cpu")), false, Set.of("cpu"))), "bobbin", "h:1");

    assertThat(found).isInstanceOf(CgroupDetection.NotFound.class);
    assertThat(((CgroupDetection.NotFound) found).why()).startsWith("cgroup v1: cannot create " + memory.resolve("bobbin/h_1"));
  }
}
