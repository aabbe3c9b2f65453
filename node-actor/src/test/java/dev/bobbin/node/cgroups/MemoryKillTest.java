package dev.bobbin.node.cgroups;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.cgroups.ContainerCgroups.MemoryEvents;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class MemoryKillTest {
  private static final Path CGROUP = Path.of("/sys/fs/cgroup/memory/bobbin/h_1/container_1");

  @Test
  void aContainerThatFailedAfterTheKernelKilledOneOfItsProcessesForMemorySaysUsageAndLimit() {
    assertThat(MemoryKill.diagnostics("container_1", 4242, 137, new MemoryEvents(1, 30, 256L << 20, 256L << 20, CGROUP)))
        .hasValue("Container [pid=4242,containerID=container_1] ran beyond the 'PHYSICAL' memory limit of its cgroup: "
            + "the kernel killed 1 of its processes for memory. Peak usage: 256 MB of 256 MB physical memory used. "
            + "Cgroup: " + CGROUP + ". Exit code is 137.");
  }

  @Test
  void aContainerThatSucceededOrWasNeverKilledForMemoryEndedByItself() {
    assertThat(MemoryKill.diagnostics("c", 1, 0, new MemoryEvents(1, 3, 1 << 20, 1 << 20, CGROUP))).isEmpty();
    // Reaching the limit (and reclaiming) is no kill where the kernel counts kills.
    assertThat(MemoryKill.diagnostics("c", 1, 1, new MemoryEvents(0, 3, 1 << 20, 1 << 20, CGROUP))).isEmpty();
  }

  @Test
  void whereTheKernelCountsNoKillsReachingTheLimitAndFailingCounts() {
    assertThat(MemoryKill.diagnostics("c", 7, 137, new MemoryEvents(-1, 4, -1, 64L << 20, CGROUP)).orElseThrow())
        .contains("its usage reached the limit 4 times. Usage reached 64 MB of physical memory. ");
  }
}
