package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Keys that have no effect load, and are named once each with the reason, in the config and the log. */
class ConfigWarningsTest {

  private static List<String> warned(CapacitySchedulerConfig c) {
    return c.warnings().stream().map(ConfigWarning::toString).toList();
  }

  @Test
  void hadoopsOwnCapacitySchedulerXmlLoadsWithOnlyWhatBobbinDoesNotDoNamed() {
    CapacitySchedulerConfig c = CapacitySchedulerConfig.parse(Fixtures.resource("hadoop-default.xml"), null);
    assertThat(c.queues().keySet()).containsExactly("root", "root.default");
    assertThat(c.schedulerWide()).isEqualTo(SchedulerWideSettings.HADOOP_DEFAULTS);
    // Lifetimes of -1, priority ACLs of *, fail-fast and workflow priorities off: that is what Bobbin
    // does anyway. One off-switch container per node heartbeat is a setting Bobbin does not have.
    assertThat(warned(c))
        .containsExactly(
            "yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments: is not supported yet; it has no effect");
  }

  @Test
  void unknownKeysAreNamedWithTheReason() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "root.a.capacty", "50",
            "maximum-aplications", "10",
            "root.a.user-settings.alice.wieght", "2",
            "root.c.capacity", "10",
            "root.a.zz.capacity", "10",
            "root.a.accessible-node-labels", "x",
            "root.a.accessible-node-labels.x.capacity", "100",
            "root.a.maximum-application-lifetime", "3600",
            "root.a.reservable", "true",
            "root.a.reservation-window", "86400000",
            "root.a.acl_submit_reservations", "alice",
            "lazy-preemption-enabled", "true",
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled", "true",
            "yarn.resourcemanager.monitor.capacity.preemption.observe-only", "true",
            "yarn.resourcemanager.reservation-system.enable", "true",
            "yarn.resourcemanager.hostname", "rm.example.com");
    String p = "yarn.scheduler.capacity.";
    assertThat(warned(c))
        .containsExactly(
            p + "root.a.capacty: is not a key Hadoop's capacity scheduler knows; it has no effect",
            p + "maximum-aplications: is not a key Hadoop's capacity scheduler knows; it has no effect",
            p + "root.a.user-settings.alice.wieght: is not a user setting Hadoop knows (user-settings.<user>.weight is); it has no effect",
            p + "root.c.capacity: is for queue root.c, which is not in the queue tree (no queues list names it); it has no effect",
            p + "root.a.zz.capacity: is for queue root.a.zz, which is not in the queue tree (no queues list names it); it has no effect",
            p + "root.a.accessible-node-labels: is not supported yet; it has no effect",
            p + "root.a.accessible-node-labels.x.capacity: is not supported yet; it has no effect",
            p + "root.a.maximum-application-lifetime: is not supported yet; it has no effect",
            p + "root.a.reservable: reservations are not supported yet; root.a runs as an ordinary queue; it has no effect",
            p + "root.a.reservation-window: reservations are not supported yet; it has no effect",
            p + "root.a.acl_submit_reservations: reservations are not supported yet; it has no effect",
            p + "lazy-preemption-enabled: is not supported yet; it has no effect",
            "yarn.resourcemanager.monitor.capacity.preemption.intra-queue-preemption.enabled: is not supported yet; it has no effect",
            "yarn.resourcemanager.monitor.capacity.preemption.observe-only: is not a key Hadoop's capacity preemption knows; it has no effect",
            "yarn.resourcemanager.reservation-system.enable: the reservation system is not supported yet; it has no effect");
    assertThat(c.unknownKeys()).contains(p + "root.a.capacty", "yarn.resourcemanager.reservation-system.enable")
        .doesNotContain("yarn.resourcemanager.hostname");
  }

  @Test
  void settingsForTheOtherKindOfQueueAreNamed() {
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "root.a.queues", "x", "root.a.x.capacity", "100",
            "root.a.user-limit-factor", "2",
            "root.a.maximum-applications", "5",
            "root.b.allow-zero-capacity-sum", "true",
            "root.b.ordering-policy.fair.enable-size-based-weight", "true");
    String p = "yarn.scheduler.capacity.";
    assertThat(warned(c))
        .containsExactly(
            p + "root.a.user-limit-factor: applies to leaf queues only; root.a is a parent queue, so it has no effect (as in Hadoop)",
            p + "root.a.maximum-applications: applies to leaf queues only; root.a is a parent queue, so it has no effect (as in Hadoop)",
            p + "root.b.allow-zero-capacity-sum: applies to parent queues only; root.b is a leaf queue, so it has no effect (as in Hadoop)",
            p + "root.b.ordering-policy.fair.enable-size-based-weight: applies to the fair ordering policy only; root.b orders fifo, so it has no effect");
  }

  @Test
  void fileLevelSurprisesAreNamed() {
    String text =
        """
        <configuration>
          <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
          <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
          <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
          <property><name>yarn.scheduler.capacity.root.a.priority</name></property>
        </configuration>
        """;
    CapacitySchedulerConfig c = CapacitySchedulerConfig.parse(Fixtures.stream(text), "capacity-scheduler.xml");
    assertThat(c.queue("a").orElseThrow().capacity()).isEqualTo(new QueueCapacity.Percentage(100));
    assertThat(warned(c))
        .containsExactly(
            "yarn.scheduler.capacity.root.a.capacity: is set twice in capacity-scheduler.xml; the later value '100' is used, as in Hadoop",
            "yarn.scheduler.capacity.root.a.priority: has no <value> in capacity-scheduler.xml; ignored, as Hadoop ignores it");
  }

  @Test
  void otherSchedulingMonitorsAreNamedAndPreemptionNeedsTheProportionalPolicy() {
    String policies = "yarn.resourcemanager.scheduler.monitor.policies";
    CapacitySchedulerConfig c =
        Fixtures.xml(
            "yarn.resourcemanager.scheduler.monitor.enable", "true",
            policies, "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy");
    assertThat(c.preemption().enabled()).isFalse();
    assertThat(warned(c)).containsExactly(
        policies + ": the scheduling monitor org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy"
            + " is not supported yet; only the proportional capacity preemption policy runs");
    // Enabled with Hadoop's default policy list.
    assertThat(Fixtures.xml("yarn.resourcemanager.scheduler.monitor.enable", "true").preemption().enabled()).isTrue();
  }

  @Test
  void eachWarningIsLoggedOnce() {
    Logger logger = (Logger) LoggerFactory.getLogger(CapacitySchedulerConfig.class);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      Fixtures.xml("root.a.capacty", "50", "root.a.reservable", "true");
      assertThat(appender.list).extracting(ILoggingEvent::getFormattedMessage)
          .containsExactly(
              "Capacity scheduler configuration: yarn.scheduler.capacity.root.a.capacty: is not a key Hadoop's capacity scheduler knows; it has no effect",
              "Capacity scheduler configuration: yarn.scheduler.capacity.root.a.reservable: reservations are not supported yet;"
                  + " root.a runs as an ordinary queue; it has no effect");
    } finally {
      logger.detachAppender(appender);
    }
  }
}
