package dev.bobbin.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
  @Test
  void threadsAreGroupedByNameLessTheirNumber() {
    assertThat(Machine.threadGroup("db-3")).isEqualTo("db");
    assertThat(Machine.threadGroup("GC Thread#1")).isEqualTo("GC Thread");
    assertThat(Machine.threadGroup("C2 CompilerThre")).isEqualTo(Machine.JIT);
    assertThat(Machine.threadGroup("C1 CompilerThre")).isEqualTo(Machine.JIT);
    assertThat(Machine.threadGroup("bobbin-pekko.ac")).isEqualTo("bobbin-pekko.ac");
    assertThat(Machine.threadGroup("42")).isEqualTo("42");
  }

  @Test
  void aBusyThreadsCpuIsReadFromProcUnderItsGroup() throws InterruptedException {
    long pid = ProcessHandle.current().pid();
    AtomicBoolean seen = new AtomicBoolean();
    Thread busy = new Thread(() -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (System.nanoTime() < deadline
          && Machine.cpuNanosByThreadGroup(pid).getOrDefault("cpu-probe", 0L) == 0) {
        Thread.onSpinWait();
      }
      seen.set(Machine.cpuNanosByThreadGroup(pid).getOrDefault("cpu-probe", 0L) > 0);
    }, "cpu-probe-7");
    busy.start();
    busy.join();
    assertThat(seen).isTrue();
  }

  @Test
  void theTableShowsEachGroupsUseInThePhaseLargestFirstWithItsKernelPartAndSumsTheSmallOnes() {
    ThreadTimes before = new ThreadTimes(Map.of("db", 1_000_000_000L, "bobbin-pekko.ac", 0L, "GC Thread", 0L),
        Map.of("db", 500_000_000L, "bobbin-pekko.ac", 0L, "GC Thread", 0L));
    ThreadTimes after = new ThreadTimes(Map.of("db", 3_000_000_000L, "bobbin-pekko.ac", 6_000_000_000L,
        "GC Thread", 50_000_000L, "idle", 0L),
        Map.of("db", 1_000_000_000L, "bobbin-pekko.ac", 1_500_000_000L, "GC Thread", 50_000_000L, "idle", 0L));
    List<List<String>> rows = ThreadCpu.table(before, after, 10, 2000, "submission");
    assertThat(rows).containsExactly(
        List.of("thread group", "cores", "ms per submission", "share", "of it in the kernel"),
        List.of("`bobbin-pekko.ac`", "0.60", "3.00", "75%", "25%"),
        List.of("`db`", "0.20", "1.00", "25%", "25%"),
        List.of("other", "0.01", "0.03", "1%", "100%"));
  }

  @Test
  void aThreadsKernelTimeIsReadFromProcUnderItsGroupAsPartOfItsCpu() throws InterruptedException {
    long pid = ProcessHandle.current().pid();
    AtomicReference<ThreadTimes> seen = new AtomicReference<>(ThreadTimes.NONE);
    // Each reading is system calls, so the probe's own readings put it in the kernel.
    Thread probe = new Thread(() -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      ThreadTimes now = Machine.threadTimes(pid);
      while (System.nanoTime() < deadline && now.kernel().getOrDefault("kernel-probe", 0L) == 0) {
        now = Machine.threadTimes(pid);
      }
      seen.set(now);
    }, "kernel-probe-3");
    probe.start();
    probe.join();
    assertThat(seen.get().kernel().get("kernel-probe")).isPositive();
    assertThat(seen.get().kernel().keySet()).isEqualTo(seen.get().cpu().keySet());
    seen.get().cpu().forEach((group, ns) -> assertThat(seen.get().kernel().get(group)).isBetween(0L, ns));
  }
}
