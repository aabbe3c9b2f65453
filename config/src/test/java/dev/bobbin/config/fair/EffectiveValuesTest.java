package dev.bobbin.config.fair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Inheritance as Hadoop resolves it, on the full fixture (see fair-scheduler.xml). */
class EffectiveValuesTest {
  private final FairSchedulerConfig config = Fixtures.fullXml();

  @Test
  void rootTakesItsOwnValuesThenTheFileDefaults() {
    EffectiveQueue root = config.effective("root");
    // Root sets minSharePreemptionTimeout (20 s) over defaultMinSharePreemptionTimeout (30 s) ...
    assertThat(root.minSharePreemptionTimeout()).contains(Duration.ofSeconds(20));
    // ... but not the fair share timeout, so defaultFairSharePreemptionTimeout (120 s) applies.
    assertThat(root.fairSharePreemptionTimeout()).contains(Duration.ofSeconds(120));
    assertThat(root.fairSharePreemptionThreshold()).isEqualTo(0.6);
    assertThat(root.aclSubmitApps()).isEqualTo(" admins");
    assertThat(root.maxContainerAllocation()).isEqualTo(ResourceSpec.UNLIMITED);
    assertThat(root.preemptable()).isTrue();
  }

  @Test
  void timeoutsAndThresholdComeFromTheParent() {
    EffectiveQueue analytics = config.effective("analytics");
    assertThat(analytics.minSharePreemptionTimeout()).contains(Duration.ofSeconds(20)); // root's
    assertThat(analytics.fairSharePreemptionTimeout()).contains(Duration.ofSeconds(60)); // its own
    assertThat(analytics.fairSharePreemptionThreshold()).isEqualTo(0.6); // root's, not the default 0.7

    EffectiveQueue adhoc = config.effective("analytics.adhoc");
    assertThat(adhoc.minSharePreemptionTimeout()).contains(Duration.ofSeconds(20));
    assertThat(adhoc.fairSharePreemptionTimeout()).contains(Duration.ofSeconds(60)); // analytics'

    EffectiveQueue reports = config.effective("analytics.reports");
    assertThat(reports.minSharePreemptionTimeout()).contains(Duration.ofSeconds(5));
    assertThat(reports.fairSharePreemptionThreshold()).isEqualTo(0.9);

    EffectiveQueue users = config.effective("users");
    assertThat(users.fairSharePreemptionTimeout()).contains(Duration.ofSeconds(120));
  }

  @Test
  void allowPreemptionFromFalseCoversEverythingBelow() {
    assertThat(config.effective("analytics").preemptable()).isFalse();
    assertThat(config.effective("analytics.adhoc").preemptable()).isFalse();
    assertThat(config.effective("analytics.reports").preemptable()).isFalse();
    assertThat(config.effective("default").preemptable()).isTrue();
  }

  @Test
  void limitsAndPolicyFallBackToTheFileDefaultsNotTheParent() {
    EffectiveQueue adhoc = config.effective("analytics.adhoc");
    assertThat(adhoc.maxRunningApps()).isEqualTo(50); // queueMaxAppsDefault, not analytics' 20
    assertThat(adhoc.maxResources()).isEqualTo(new ResourceSpec.Percentage(0.9, 0.8));
    assertThat(adhoc.minResources()).isEqualTo(ResourceSpec.NONE);
    assertThat(adhoc.maxAMShare()).isEqualTo(0.2);
    assertThat(adhoc.schedulingPolicy()).isEqualTo(QueuePolicy.FIFO);
    assertThat(config.effective("users").schedulingPolicy()).isEqualTo(QueuePolicy.DRF); // the default
    assertThat(config.effective("default").maxAMShare()).isEqualTo(0.4); // queueMaxAMShareDefault
    assertThat(config.effective("analytics.reports").amShareUnlimited()).isTrue();
    assertThat(config.effective("analytics").weight()).isEqualTo(3.0);
  }

  @Test
  void maxContainerAllocationIsInherited() {
    ResourceSpec cap = new ResourceSpec.Absolute(2048, 2);
    assertThat(config.effective("analytics.adhoc").maxContainerAllocation()).isEqualTo(cap);
    assertThat(config.effective("analytics.reports").maxContainerAllocation()).isEqualTo(cap);
    assertThat(config.effective("default").maxContainerAllocation()).isEqualTo(ResourceSpec.UNLIMITED);
  }

  @Test
  void aclsDefaultToNoOneBelowRoot() {
    assertThat(config.effective("analytics").aclSubmitApps()).isEqualTo("alice,bob analysts");
    assertThat(config.effective("analytics.adhoc").aclSubmitApps()).isEqualTo(FairQueueConfig.ACL_NO_ONE);
    assertThat(config.effective("default").aclAdministerApps()).isEqualTo("ops");
  }

  @Test
  void aQueueCreatedAtRunTimeTakesItsParentsMaxChildResources() {
    EffectiveQueue alice = config.effective("root.users.alice");
    assertThat(alice.dynamic()).isTrue();
    assertThat(alice.type()).isEqualTo(QueueType.LEAF);
    assertThat(alice.maxResources()).isEqualTo(new ResourceSpec.Absolute(8192, 4));
    assertThat(alice.maxRunningApps()).isEqualTo(50);
    assertThat(alice.fairSharePreemptionTimeout()).contains(Duration.ofSeconds(120));
    assertThat(alice.aclSubmitApps()).isEqualTo(FairQueueConfig.ACL_NO_ONE);

    // Two levels down: the new middle parent has no maxChildResources, so the default cap applies.
    EffectiveQueue deep = config.effective("users.team.bob");
    assertThat(deep.maxResources()).isEqualTo(new ResourceSpec.Percentage(0.9, 0.8));
    assertThat(config.effective("users.team", QueueType.PARENT).maxResources())
        .isEqualTo(new ResourceSpec.Absolute(8192, 4));

    // Under analytics, preemption stays off and the container cap carries on.
    EffectiveQueue scratch = config.effective("analytics.scratch");
    assertThat(scratch.preemptable()).isFalse();
    assertThat(scratch.maxResources()).isEqualTo(new ResourceSpec.Absolute(4096, 2));
    assertThat(scratch.maxContainerAllocation()).isEqualTo(new ResourceSpec.Absolute(2048, 2));
  }

  @Test
  void nothingCanBeCreatedUnderALeaf() {
    assertThatThrownBy(() -> config.effective("default.x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("root.default is a leaf queue");
  }

  @Test
  void withNothingConfiguredTimeoutsAreNever() {
    EffectiveQueue root = FairSchedulerConfig.minimal().effective("root");
    assertThat(root.minSharePreemptionTimeout()).isEqualTo(Optional.empty());
    assertThat(root.fairSharePreemptionTimeout()).isEqualTo(Optional.empty());
    assertThat(root.fairSharePreemptionThreshold()).isEqualTo(0.5);
    assertThat(root.maxRunningApps()).isEqualTo(FairDefaults.UNLIMITED_APPS);
    assertThat(root.maxResources()).isEqualTo(ResourceSpec.UNLIMITED);
    assertThat(root.aclSubmitApps()).isEqualTo(FairQueueConfig.ACL_EVERYONE);
    assertThat(root.schedulingPolicy()).isEqualTo(QueuePolicy.FAIR);
    assertThat(FairSchedulerConfig.minimal().effective("default").fairSharePreemptionTimeout()).isEmpty();
  }
}
