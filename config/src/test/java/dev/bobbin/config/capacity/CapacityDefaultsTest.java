package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.security.AccessControlList;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * What a queue and the scheduler get when the file says nothing: Hadoop 3.4.2's values, as its
 * CapacitySchedulerConfiguration, YarnConfiguration and a CapacityScheduler loaded with the same
 * two-queue file report them (maximum-applications 10000, AM share 0.1, locality delays 40 and -1,
 * user limit 100 with factor 1, priorities 0, root's ACLs everyone and the others' no one, RUNNING,
 * allocations 1024 MB / 1 vcore to 8192 MB / 4 vcores, preemption off with 3000 ms, 15000 ms, 0.1,
 * 0.1 and 0.2, every queue preemption-disabled while the monitor is off).
 */
class CapacityDefaultsTest {
  private final CapacitySchedulerConfig config = Fixtures.xml();

  @Test
  void schedulerWideDefaults() {
    assertThat(config.schedulerWide()).isEqualTo(SchedulerWideSettings.HADOOP_DEFAULTS);
    SchedulerWideSettings w = config.schedulerWide();
    assertThat(w.maximumApplications()).isEqualTo(10_000);
    assertThat(w.maximumAmResourcePercent()).isEqualTo(0.1f);
    assertThat(w.resourceCalculator()).isEqualTo(ResourceCalculator.DEFAULT);
    assertThat(w.nodeLocalityDelay()).isEqualTo(40);
    assertThat(w.rackLocalityAdditionalDelay()).isEqualTo(-1);
    assertThat(w.rackLocalityFullReset()).isTrue();
    assertThat(w.reservationsContinueLooking()).isTrue();
    assertThat(w.maxApplicationPriority()).isEqualTo(0);
    assertThat(w.minimumAllocationMb()).isEqualTo(1024);
    assertThat(w.minimumAllocationVcores()).isEqualTo(1);
    assertThat(w.maximumAllocationMb()).isEqualTo(8192);
    assertThat(w.maximumAllocationVcores()).isEqualTo(4);
    assertThat(config.queueMappings()).isEmpty();
    assertThat(config.queueMappingsOverride()).isFalse();
  }

  @Test
  void preemptionDefaults() {
    PreemptionSettings p = config.preemption();
    assertThat(p).isEqualTo(PreemptionSettings.HADOOP_DEFAULTS);
    assertThat(p.enabled()).isFalse();
    assertThat(p.observeOnly()).isFalse();
    assertThat(p.monitoringInterval()).isEqualTo(Duration.ofMillis(3000));
    assertThat(p.maxWaitBeforeKill()).isEqualTo(Duration.ofMillis(15000));
    assertThat(p.totalPreemptionPerRound()).isEqualTo(0.1f);
    assertThat(p.maxIgnoredOverCapacity()).isEqualTo(0.1);
    assertThat(p.naturalTerminationFactor()).isEqualTo(0.2);
  }

  @Test
  void queueDefaults() {
    CapacityQueue root = config.root();
    assertThat(root.aclSubmitApplications()).isEqualTo(AccessControlList.EVERYONE);
    assertThat(root.aclAdministerQueue()).isEqualTo(AccessControlList.EVERYONE);
    assertThat(root.queueOrderingPolicy()).isEqualTo(QueueOrderingPolicy.UTILIZATION);
    assertThat(root.preemptionDisabled()).isTrue();

    CapacityQueue a = config.queue("a").orElseThrow();
    assertThat(a.maximumCapacity()).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(a.state()).isEqualTo(QueueState.RUNNING);
    assertThat(a.maximumAllocationMb()).isEqualTo(8192);
    assertThat(a.maximumAllocationVcores()).isEqualTo(4);
    assertThat(a.orderingPolicy()).isEqualTo(AppOrderingPolicy.FIFO);
    assertThat(a.sizeBasedWeight()).isFalse();
    assertThat(a.priority()).isZero();
    assertThat(a.minimumUserLimitPercent()).isEqualTo(100f);
    assertThat(a.userLimitFactor()).isEqualTo(1f);
    assertThat(a.userWeights()).isEmpty();
    assertThat(a.maximumApplications()).isEqualTo(OptionalInt.empty());
    assertThat(a.maximumAmResourcePercent()).isEqualTo(0.1f);
    assertThat(a.aclSubmitApplications()).isEqualTo(AccessControlList.NO_ONE);
    assertThat(a.aclAdministerQueue()).isEqualTo(AccessControlList.NO_ONE);
    // Hadoop reports every queue preemption-disabled while the monitor is off.
    assertThat(a.preemptionDisabled()).isTrue();
    assertThat(a.defaultApplicationPriority()).isZero();
    // Root's everyone-ACL reaches every queue, as in Hadoop.
    assertThat(config.maySubmit("a", "anyone", java.util.List.of())).isTrue();
  }

  @Test
  void aQueueWithoutACapacityHasNone() {
    CapacitySchedulerConfig c = Fixtures.xml(java.util.Map.of("root.queues", "a,b", "root.a.capacity", "100"));
    assertThat(c.queue("b").orElseThrow().capacity()).isEqualTo(new QueueCapacity.Percentage(0));
  }

  @Test
  void scheduleWideQueueDefaultsApplyWhereAQueueSetsNone() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "minimum-user-limit-percent", "50", "user-limit-factor", "-1", "global-queue-max-application", "300",
            "root.b.minimum-user-limit-percent", "20", "root.b.maximum-applications", "7", "maximum-am-resource-percent", "0.25");
    CapacityQueue a = c.queue("a").orElseThrow();
    assertThat(a.minimumUserLimitPercent()).isEqualTo(50f);
    assertThat(a.userLimitFactorUnlimited()).isTrue();
    assertThat(a.maximumApplications()).isEqualTo(OptionalInt.of(300));
    assertThat(a.maximumAmResourcePercent()).isEqualTo(0.25f);
    CapacityQueue b = c.queue("b").orElseThrow();
    assertThat(b.minimumUserLimitPercent()).isEqualTo(20f);
    assertThat(b.maximumApplications()).isEqualTo(OptionalInt.of(7));
  }

  @Test
  void preemptionSwitchedOnIsInheritedDownTheTree() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "yarn.resourcemanager.scheduler.monitor.enable", "true",
            "root.a.queues", "x,y", "root.a.x.capacity", "50", "root.a.y.capacity", "50",
            "root.a.disable_preemption", "true", "root.a.y.disable_preemption", "false");
    assertThat(c.root().preemptionDisabled()).isFalse();
    assertThat(c.queue("a").orElseThrow().preemptionDisabled()).isTrue();
    assertThat(c.queue("x").orElseThrow().preemptionDisabled()).isTrue();
    assertThat(c.queue("y").orElseThrow().preemptionDisabled()).isFalse();
    assertThat(c.queue("b").orElseThrow().preemptionDisabled()).isFalse();
  }

  @Test
  void aStoppedParentStopsItsQueues() {
    CapacitySchedulerConfig c =
        Fixtures.xml("root.a.queues", "x", "root.a.x.capacity", "100", "root.a.state", "stopped");
    assertThat(c.queue("x").orElseThrow().state()).isEqualTo(QueueState.STOPPED);
    assertThat(c.queue("b").orElseThrow().state()).isEqualTo(QueueState.RUNNING);
  }

  @Test
  void maximumAllocationIsInheritedAndMayNarrow() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "root.a.queues", "x,y", "root.a.x.capacity", "50", "root.a.y.capacity", "50",
            "root.a.maximum-allocation-mb", "4096", "root.a.y.maximum-allocation-vcores", "1", "root.a.x.maximum-allocation-mb", "-1");
    assertThat(c.queue("x").orElseThrow().maximumAllocationMb()).isEqualTo(4096);
    assertThat(c.queue("y").orElseThrow().maximumAllocationMb()).isEqualTo(4096);
    assertThat(c.queue("y").orElseThrow().maximumAllocationVcores()).isEqualTo(1);
    assertThat(c.queue("b").orElseThrow().maximumAllocationMb()).isEqualTo(8192);
  }

  @Test
  void absoluteCapacitiesAndHadoopsNamesForPolicies() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "root.a.capacity", "[memory=10Gi, vcores=4]", "root.b.capacity", "[memory-mb=2048,vcores=2]",
            "root.a.maximum-capacity", "[memory=20480,vcores=8]",
            "root.a.ordering-policy", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy",
            "resource-calculator", "DominantResourceCalculator",
            "queue-mappings", "g:eng:b, u:%user:root.%user",
            "yarn.scheduler.queue-placement-rules.app-name", "nightly:a,%application:%application");
    assertThat(c.queue("a").orElseThrow().capacity()).isEqualTo(new QueueCapacity.Absolute(10240, 4));
    assertThat(c.queue("a").orElseThrow().maximumCapacity()).isEqualTo(new QueueCapacity.Absolute(20480, 8));
    assertThat(c.queue("b").orElseThrow().capacity()).isEqualTo(new QueueCapacity.Absolute(2048, 2));
    assertThat(c.queue("a").orElseThrow().orderingPolicy()).isEqualTo(AppOrderingPolicy.FAIR);
    assertThat(c.schedulerWide().resourceCalculator()).isEqualTo(ResourceCalculator.DOMINANT);
    assertThat(c.queueMappings())
        .containsExactly(
            new QueueMapping(QueueMapping.Type.GROUP, "eng", "b"),
            new QueueMapping(QueueMapping.Type.USER, "%user", "root.%user"),
            new QueueMapping(QueueMapping.Type.APPLICATION, "nightly", "a"),
            new QueueMapping(QueueMapping.Type.APPLICATION, "%application", "%application"));
    assertThat(c.queueMappings().get(3).matchesAll()).isTrue();
    assertThat(c.queueMappings().get(2)).hasToString("nightly:a");
  }

  @Test
  void theRackResetAndContinueLookingSwitchesAreReadFromTheFileAndFromHocon() {
    SchedulerWideSettings fromXml = Fixtures.xml("rack-locality-full-reset", "false",
        "reservations-continue-looking", "false").schedulerWide();
    assertThat(fromXml.rackLocalityFullReset()).isFalse();
    assertThat(fromXml.reservationsContinueLooking()).isFalse();
    CapacitySchedulerConfig hocon = Fixtures.hocon(
        "rack-locality-full-reset = false, reservations-continue-looking = false, queues { a { capacity = 100 } }");
    assertThat(hocon.schedulerWide().rackLocalityFullReset()).isFalse();
    assertThat(hocon.schedulerWide().reservationsContinueLooking()).isFalse();
    assertThat(hocon.warnings()).isEmpty();
  }
}
