package dev.bobbin.node.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.ContainerMonitorSettings;
import dev.bobbin.protocol.ExitStatus;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class ContainersMonitorTest {
  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final long MB = 1024 * 1024;
  private static final String C = "container_1700000000000_0001_01_000002";
  private static final ContainerMonitorSettings SETTINGS =
      new ContainerMonitorSettings(Duration.ofMillis(50), true, false, 2.1);

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  /** One container process (pid 10) whose resident memory the test sets, in pages of 1 MB. */
  private static ContainersMonitor.Proc proc(AtomicLong residentMb) {
    return new ContainersMonitor.Proc(() -> List.of(new ProcStat(10, 1, 10, 10, "hog", 100, 20, 2048 * MB,
        residentMb.get())), pid -> "hog --eat", MB, 100);
  }

  @Test
  void aContainerThatGrowsPastItsLimitIsReportedOnceWithItsUsageRecordedUntilThen() {
    AtomicLong resident = new AtomicLong(100);
    ContainerUsages usages = new ContainerUsages();
    TestProbe<ContainersMonitor.OverLimit> node = testKit.createTestProbe();
    var monitor = testKit.spawn(ContainersMonitor.create(SETTINGS, proc(resident), usages, node.ref()));
    monitor.tell(new ContainersMonitor.Watch(C, 10, MemoryLimit.of(256, 2.1, true, false)));

    node.awaitAssert(() -> assertThat(usages.of(C)).get()
        .returns(100 * MB, ContainerUsages.Usage::pmemBytes).returns(1200L, ContainerUsages.Usage::cpuMillis));
    node.expectNoMessage(Duration.ofMillis(200));

    resident.set(300);
    ContainersMonitor.OverLimit breach = node.receiveMessage(Duration.ofSeconds(5));
    assertThat(breach.containerId()).isEqualTo(C);
    assertThat(breach.exitStatus()).isEqualTo(ExitStatus.KILLED_EXCEEDED_PMEM);
    assertThat(breach.diagnostics()).contains("300 MB of 256 MB physical memory used").contains("(hog)")
        .contains("hog --eat");
    node.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void anUnwatchedContainerIsNeitherMeasuredNorReported() {
    AtomicLong resident = new AtomicLong(100);
    ContainerUsages usages = new ContainerUsages();
    TestProbe<ContainersMonitor.OverLimit> node = testKit.createTestProbe();
    var monitor = testKit.spawn(ContainersMonitor.create(SETTINGS, proc(resident), usages, node.ref()));
    monitor.tell(new ContainersMonitor.Watch(C, 10, MemoryLimit.of(256, 2.1, true, false)));
    node.awaitAssert(() -> assertThat(usages.of(C)).isPresent());

    monitor.tell(new ContainersMonitor.Unwatch(C));
    node.awaitAssert(() -> assertThat(usages.of(C)).isEmpty());
    resident.set(900);
    node.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aContainerInACgroupShowsTheMemoryItsCgroupChargesAndWithThePhysicalCheckOffIsNotReported() {
    AtomicLong resident = new AtomicLong(900);
    ContainerUsages usages = new ContainerUsages();
    TestProbe<ContainersMonitor.OverLimit> node = testKit.createTestProbe();
    var monitor = testKit.spawn(ContainersMonitor.create(SETTINGS, proc(resident),
        id -> id.equals(C) ? OptionalLong.of(120 * MB) : OptionalLong.empty(), usages, node.ref()));
    // The kernel holds it to 256 MB: the monitor only measures.
    monitor.tell(new ContainersMonitor.Watch(C, 10, MemoryLimit.of(256, 2.1, false, false)));

    node.awaitAssert(() -> assertThat(usages.of(C)).get()
        .returns(120 * MB, ContainerUsages.Usage::pmemBytes).returns(2048 * MB, ContainerUsages.Usage::vmemBytes));
    node.expectNoMessage(Duration.ofMillis(300));
  }
}
