package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.fair.PlacementRule.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocationFileParserTest {
  private final FairSchedulerConfig config = Fixtures.fullXml();

  private FairQueueConfig queue(String name) {
    return config.queue(name).orElseThrow();
  }

  @Test
  void queueTreeKeepsFileOrderAndFullPaths() {
    assertThat(config.queues().keySet())
        .containsExactly(
            "root", "root.analytics", "root.analytics.adhoc", "root.analytics.reports", "root.default", "root.users");
    assertThat(queue("root").type()).isEqualTo(QueueType.PARENT);
    assertThat(queue("analytics").type()).isEqualTo(QueueType.PARENT);
    assertThat(queue("root.analytics.adhoc").type()).isEqualTo(QueueType.LEAF);
    // type="parent" with no children configured is still a parent.
    assertThat(queue("users").type()).isEqualTo(QueueType.PARENT);
    assertThat(queue("users").children()).isEmpty();
    assertThat(queue("analytics.reports").name()).isEqualTo("reports");
  }

  @Test
  void rootSettings() {
    FairQueueConfig root = queue("root");
    assertThat(root.aclSubmitApps()).isEqualTo(" admins"); // the leading space (groups only) is kept
    assertThat(root.aclAdministerApps()).isEqualTo("ops ops");
    assertThat(root.minSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(root.fairSharePreemptionTimeout()).isNull();
    assertThat(root.fairSharePreemptionThreshold()).isEqualTo(0.6);
    assertThat(root.schedulingPolicy()).isEqualTo(QueuePolicy.DRF);
    assertThat(root.weight()).isEqualTo(1.0);
  }

  @Test
  void everyPerQueueElement() {
    FairQueueConfig a = queue("analytics");
    assertThat(a.weight()).isEqualTo(3.0);
    assertThat(a.minResources()).isEqualTo(new ResourceSpec.Absolute(10_000, 4));
    assertThat(a.maxResources()).isEqualTo(new ResourceSpec.Percentage(0.5, 0.25));
    assertThat(a.maxChildResources()).isEqualTo(new ResourceSpec.Absolute(4096, 2));
    assertThat(a.maxContainerAllocation()).isEqualTo(new ResourceSpec.Absolute(2048, 2));
    assertThat(a.maxRunningApps()).isEqualTo(20);
    assertThat(a.maxAMShare()).isNull();
    assertThat(a.schedulingPolicy()).isEqualTo(QueuePolicy.FAIR);
    assertThat(a.fairSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(a.minSharePreemptionTimeout()).isNull();
    assertThat(a.fairSharePreemptionThreshold()).isNull();
    assertThat(a.allowPreemptionFrom()).isFalse();
    assertThat(a.aclSubmitApps()).isEqualTo("alice,bob analysts");
    assertThat(a.aclAdministerApps()).isNull();

    FairQueueConfig adhoc = queue("analytics.adhoc");
    assertThat(adhoc.maxAMShare()).isEqualTo(0.2);
    assertThat(adhoc.schedulingPolicy()).isEqualTo(QueuePolicy.FIFO); // from the old <schedulingMode>
    assertThat(adhoc.allowPreemptionFrom()).isTrue();

    FairQueueConfig reports = queue("analytics.reports"); // a <pool>
    assertThat(reports.weight()).isEqualTo(0.5);
    assertThat(reports.maxAMShare()).isEqualTo(-1.0);
    assertThat(reports.minSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(reports.fairSharePreemptionThreshold()).isEqualTo(0.9);
    assertThat(reports.schedulingPolicy()).isEqualTo(QueuePolicy.FAIR); // Hadoop's class name

    FairQueueConfig dflt = queue("default");
    assertThat(dflt.maxResources())
        .isEqualTo(new ResourceSpec.Absolute(ResourceSpec.Absolute.UNBOUNDED_MEMORY, 8));
    assertThat(dflt.aclAdministerApps()).isEqualTo("ops");
    assertThat(dflt.minResources()).isNull();

    assertThat(queue("users").maxChildResources()).isEqualTo(new ResourceSpec.Absolute(8192, 4));
  }

  @Test
  void topLevelDefaultsAndUsers() {
    FairDefaults d = config.defaults();
    assertThat(d.userMaxAppsDefault()).isEqualTo(10);
    assertThat(d.queueMaxAppsDefault()).isEqualTo(50);
    assertThat(d.queueMaxResourcesDefault()).isEqualTo(new ResourceSpec.Percentage(0.9, 0.8));
    assertThat(d.queueMaxAMShareDefault()).isEqualTo(0.4);
    assertThat(d.defaultQueueSchedulingPolicy()).isEqualTo(QueuePolicy.DRF);
    assertThat(d.defaultFairSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(120));
    assertThat(d.defaultMinSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.defaultFairSharePreemptionThreshold()).isEqualTo(0.7);

    assertThat(config.userMaxApps()).isEqualTo(Map.of("alice", 5, "first.last", 2));
    assertThat(config.maxRunningAppsForUser("alice")).isEqualTo(5);
    assertThat(config.maxRunningAppsForUser("zoe")).isEqualTo(10);
  }

  @Test
  void placementPolicyWithNestedRules() {
    List<PlacementRule> rules = config.placementPolicy().rules();
    assertThat(rules)
        .containsExactly(
            PlacementRule.of(Kind.SPECIFIED, false),
            PlacementRule.of(Kind.SECONDARY_GROUP_EXISTING_QUEUE, true),
            new PlacementRule(Kind.NESTED_USER_QUEUE, true, null, PlacementRule.of(Kind.PRIMARY_GROUP, false)),
            PlacementRule.of(Kind.USER, false),
            new PlacementRule(Kind.DEFAULT, false, "root.analytics.adhoc", null),
            new PlacementRule(
                Kind.NESTED_USER_QUEUE, true, null, new PlacementRule(Kind.DEFAULT, true, "root.users", null)));
    assertThat(rules.get(5).terminal()).isTrue();
    assertThat(rules.get(4).terminal()).isFalse();
  }

  @Test
  void emptyFileIsRootAloneWithHadoopDefaults() {
    FairSchedulerConfig empty = Fixtures.xml("");
    assertThat(empty).isEqualTo(FairSchedulerConfig.minimal());
    assertThat(empty.defaults()).isEqualTo(FairDefaults.HADOOP);
    assertThat(empty.placementPolicy()).isNull();
  }

  @Test
  void topLevelQueuesHangOffRoot() {
    FairSchedulerConfig c =
        Fixtures.xml(
            """
            <queue name="a"><queue name="b"/></queue>
            <pool name="c"/>
            <queue name=" d "/>
            """);
    assertThat(c.queues().keySet()).containsExactly("root", "root.a", "root.a.b", "root.c", "root.d");
    assertThat(c.queue("root.a").orElseThrow().type()).isEqualTo(QueueType.PARENT);
    assertThat(c.queue("a.b")).isEqualTo(c.queue("root.a.b"));
  }

  @Test
  void valuesAsHadoopReadsThem() {
    FairSchedulerConfig c =
        Fixtures.xml(
            """
            <queue name="a">
              <minResources>0vcores,10000 mb</minResources>
              <maxAMShare>3</maxAMShare>
              <fairSharePreemptionThreshold>1.5</fairSharePreemptionThreshold>
              <allowPreemptionFrom> TRUE </allowPreemptionFrom>
              <schedulingPolicy>DRF</schedulingPolicy>
            </queue>
            <fairSharePreemptionTimeout>45</fairSharePreemptionTimeout>
            <defaultQueueSchedulingMode>drf</defaultQueueSchedulingMode>
            """);
    FairQueueConfig a = c.queue("a").orElseThrow();
    assertThat(a.minResources()).isEqualTo(new ResourceSpec.Absolute(10_000, 0));
    assertThat(a.maxAMShare()).isEqualTo(1.0); // Hadoop lowers shares above 1 to 1
    assertThat(a.fairSharePreemptionThreshold()).isEqualTo(1.0); // and clamps the threshold
    assertThat(a.allowPreemptionFrom()).isTrue();
    assertThat(a.schedulingPolicy()).isEqualTo(QueuePolicy.DRF);
    // Hadoop 2's top-level name for the default fair share timeout.
    assertThat(c.defaults().defaultFairSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(c.defaults().defaultQueueSchedulingPolicy()).isEqualTo(QueuePolicy.DRF);
  }

  @Test
  void newTimeoutNameWinsOverTheOldOne() {
    FairSchedulerConfig c =
        Fixtures.xml(
            """
            <defaultFairSharePreemptionTimeout>10</defaultFairSharePreemptionTimeout>
            <fairSharePreemptionTimeout>45</fairSharePreemptionTimeout>
            """);
    assertThat(c.defaults().defaultFairSharePreemptionTimeout()).isEqualTo(Duration.ofSeconds(10));
  }
}
