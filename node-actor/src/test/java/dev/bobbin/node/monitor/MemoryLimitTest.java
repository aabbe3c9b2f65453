package dev.bobbin.node.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ExitStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** YARN's rule for a container's memory: twice the limit at once, or the limit by processes seen before. */
class MemoryLimitTest {
  private static final long PAGE = 4096;
  private static final long MB = 1024 * 1024;
  private static final String C = "container_1700000000000_0001_01_000002";
  private final MemoryLimit limit = MemoryLimit.of(512, 2.1, true, true);

  /** A root (pid 10) and a child (pid 11) holding {@code rootMb} and {@code childMb} resident. */
  private static ProcessTree tree(long rootMb, long childMb, Map<Long, Integer> agesBefore) {
    List<ProcStat> all = List.of(
        new ProcStat(1, 0, 1, 1, "init", 0, 0, 10 * MB, 100),
        new ProcStat(10, 1, 10, 10, "bash", 5, 1, 100 * MB, rootMb * MB / PAGE),
        new ProcStat(11, 10, 10, 10, "java", 400, 30, 900 * MB, childMb * MB / PAGE),
        new ProcStat(12, 1, 12, 12, "other", 0, 0, 50 * MB, 10_000));
    return ProcessTree.of(10, all, agesBefore, PAGE);
  }

  @Test
  void theTreeIsTheRootAndItsDescendantsOnly() {
    ProcessTree t = tree(10, 600, Map.of());
    assertThat(t.processes()).extracting(ProcStat::pid).containsExactlyInAnyOrder(10L, 11L);
    assertThat(t.rssBytes(0)).isEqualTo(610 * MB);
    assertThat(t.vmemBytes(0)).isEqualTo(1000 * MB);
    assertThat(t.cpuTicks()).isEqualTo(436);
    assertThat(ProcessTree.of(99, t.processes(), Map.of(), PAGE).isEmpty()).isTrue();
  }

  @Test
  void aNewProcessOverTheLimitButUnderTwiceItIsGivenOneMoreReading() {
    ProcessTree first = tree(10, 600, Map.of());
    assertThat(limit.check(first, C, t -> "")).isEmpty();

    ProcessTree second = tree(10, 600, first.ages());
    var breach = limit.check(second, C, t -> "DUMP");
    assertThat(breach).get().returns(ExitStatus.KILLED_EXCEEDED_PMEM, MemoryLimit.Breach::exitStatus);
    assertThat(breach.get().diagnostics())
        .startsWith("Container [pid=10," + "containerID=" + C + "] is running " + (98 * MB)
            + "B beyond the 'PHYSICAL' memory limit. Current usage: 610 MB of 512 MB physical memory used; "
            + "1000 MB of 1.0 GB virtual memory used. Killing container.\nDump of the process-tree for " + C
            + " :\nDUMP");
  }

  @Test
  void twiceTheLimitIsABreachAtOnce() {
    assertThat(limit.check(tree(10, 1100, Map.of()), C, t -> "")).get()
        .returns(ExitStatus.KILLED_EXCEEDED_PMEM, MemoryLimit.Breach::exitStatus);
  }

  @Test
  void virtualMemoryIsCheckedFirstAndOnlyWhenEnabled() {
    MemoryLimit tight = MemoryLimit.of(256, 2.1, true, true);
    ProcessTree t = tree(10, 100, Map.of(10L, 0, 11L, 0));
    assertThat(tight.check(t, C, x -> "")).get()
        .returns(ExitStatus.KILLED_EXCEEDED_VMEM, MemoryLimit.Breach::exitStatus)
        .satisfies(b -> assertThat(b.diagnostics()).contains("beyond the 'VIRTUAL' memory limit"));
    assertThat(MemoryLimit.of(256, 2.1, true, false).check(t, C, x -> "")).isEmpty();
    assertThat(MemoryLimit.of(512, 2.1, false, false).check(tree(10, 1100, Map.of()), C, x -> "")).isEmpty();
  }

  @Test
  void sizesAreWrittenAsYarnWritesThem() {
    assertThat(MemoryLimit.bytes(1000)).isEqualTo("1000");
    assertThat(MemoryLimit.bytes(512 * MB)).isEqualTo("512 M");
    assertThat(MemoryLimit.bytes(1288 * MB)).isEqualTo("1.3 G");
    assertThat(MemoryLimit.bytes(1024 * MB - 1)).isEqualTo("1.0 G");
  }

  @Test
  void theDumpListsEveryProcessOfTheTree() {
    String dump = tree(10, 600, Map.of()).dump(pid -> "cmd-" + pid, 100);
    assertThat(dump.lines()).hasSize(3);
    assertThat(dump).contains("\t|- 11 10 10 10 (java) 4000 300 " + (900 * MB) + " " + (600 * MB / PAGE) + " cmd-11");
  }
}
