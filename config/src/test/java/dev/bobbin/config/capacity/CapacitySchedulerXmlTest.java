package dev.bobbin.config.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.security.AccessControlList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The operator's capacity-scheduler.xml and yarn-site.xml, read the way Hadoop reads them. */
class CapacitySchedulerXmlTest {
  private final CapacitySchedulerConfig config = Fixtures.fullXml();

  private CapacityQueue queue(String name) {
    return config.queue(name).orElseThrow();
  }

  @Test
  void theTreeKeepsTheFileOrder() {
    assertThat(config.queues().keySet()).containsExactly("root", "root.a", "root.a.a1", "root.a.a2", "root.b", "root.c");
    assertThat(config.leafQueues()).extracting(q -> q.path().full()).containsExactly("root.a.a1", "root.a.a2", "root.b", "root.c");
    assertThat(queue("a").isLeaf()).isFalse();
    // A leaf's own name, a path below root and the full path name the same queue.
    assertThat(queue("a1")).isSameAs(queue("a.a1")).isEqualTo(queue("root.a.a1"));
    assertThat(config.queue("a3")).isEmpty();
    assertThat(config.warnings()).isEmpty();
  }

  @Test
  void capacitiesAsWrittenWithVariablesSubstituted() {
    // ${org.a.share} is another property of the file, 60.
    assertThat(queue("a").capacity()).isEqualTo(new QueueCapacity.Percentage(60));
    assertThat(queue("a").maximumCapacity()).isEqualTo(new QueueCapacity.Percentage(80));
    assertThat(queue("a1").capacity()).isEqualTo(new QueueCapacity.Percentage(70));
    assertThat(queue("a1").maximumCapacity()).isEqualTo(QueueCapacity.UNLIMITED);
    // -1 and a missing maximum are both unlimited.
    assertThat(queue("a2").maximumCapacity()).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(queue("c").maximumCapacity()).isEqualTo(QueueCapacity.UNLIMITED);
    assertThat(queue("root").capacity()).isEqualTo(new QueueCapacity.Percentage(100));
  }

  @Test
  void userLimitsApplicationLimitsAndOrdering() {
    CapacityQueue a1 = queue("a1");
    assertThat(a1.minimumUserLimitPercent()).isEqualTo(25f);
    assertThat(a1.userLimitFactor()).isEqualTo(2f);
    assertThat(a1.maximumApplications()).isEqualTo(OptionalInt.of(200));
    assertThat(a1.orderingPolicy()).isEqualTo(AppOrderingPolicy.FAIR);
    assertThat(a1.sizeBasedWeight()).isTrue();
    assertThat(a1.priority()).isEqualTo(1);
    assertThat(a1.defaultApplicationPriority()).isEqualTo(3);
    // The scheduler-wide AM share, as the queue sets none.
    assertThat(a1.maximumAmResourcePercent()).isEqualTo(0.2f);

    CapacityQueue b = queue("b");
    assertThat(b.minimumUserLimitPercent()).isEqualTo(100f);
    assertThat(b.userLimitFactor()).isEqualTo(1f);
    // No limit of its own: a share of maximum-applications, which the policy works out.
    assertThat(b.maximumApplications()).isEmpty();
    assertThat(b.orderingPolicy()).isEqualTo(AppOrderingPolicy.FIFO);
    assertThat(queue("a2").maximumAmResourcePercent()).isEqualTo(0.3f);
  }

  @Test
  void userWeightsAreInheritedAndOverridden() {
    // carol's weight is set on a and holds in both of a's queues; alice's only in a1.
    assertThat(queue("a1").userWeights()).isEqualTo(Map.of("alice", 2f, "carol", 0.5f));
    assertThat(queue("a2").userWeights()).isEqualTo(Map.of("carol", 0.5f));
    assertThat(queue("a2").userWeight("dave")).isEqualTo(1f);
    assertThat(queue("b").userWeights()).isEmpty();
  }

  @Test
  void queueOrderingIsInheritedByParentQueues() {
    assertThat(queue("root").queueOrderingPolicy()).isEqualTo(QueueOrderingPolicy.UTILIZATION);
    assertThat(queue("a").queueOrderingPolicy()).isEqualTo(QueueOrderingPolicy.PRIORITY_UTILIZATION);
    assertThat(queue("a").queueOrderingPolicy().respectsPriority()).isTrue();
  }

  @Test
  void statesAndMaximumAllocations() {
    assertThat(queue("a2").state()).isEqualTo(QueueState.STOPPED);
    assertThat(queue("a1").state()).isEqualTo(QueueState.RUNNING);
    assertThat(queue("a2").maximumAllocationMb()).isEqualTo(4096);
    assertThat(queue("a2").maximumAllocationVcores()).isEqualTo(2);
    assertThat(queue("c").maximumAllocationMb()).isEqualTo(2048);
    assertThat(queue("c").maximumAllocationVcores()).isEqualTo(1);
    // The cluster's, from yarn-site.xml.
    assertThat(queue("a1").maximumAllocationMb()).isEqualTo(16384);
    assertThat(queue("a1").maximumAllocationVcores()).isEqualTo(8);
  }

  @Test
  void aclsAsHadoopWritesThem() {
    assertThat(queue("root").aclSubmitApplications()).isEqualTo(AccessControlList.NO_ONE);
    assertThat(queue("root").aclAdministerQueue()).isEqualTo(new AccessControlList(false, Set.of("yarn"), Set.of("admins")));
    assertThat(queue("a").aclSubmitApplications()).isEqualTo(new AccessControlList(false, Set.of("alice", "carol"), Set.of("analysts")));
    // A leading space: groups only.
    assertThat(queue("a").aclAdministerQueue()).isEqualTo(new AccessControlList(false, Set.of(), Set.of("a-leads")));
    assertThat(queue("b").aclSubmitApplications()).isEqualTo(AccessControlList.EVERYONE);
    // Not set below root: no one, so only the ancestors' lists grant anything.
    assertThat(queue("a1").aclSubmitApplications()).isEqualTo(AccessControlList.NO_ONE);
  }

  @Test
  void accessIsGrantedByTheQueueOrAnAncestor() {
    assertThat(config.maySubmit("a1", "alice", List.of())).isTrue(); // a's list
    assertThat(config.maySubmit("a1", "erin", List.of("analysts"))).isTrue();
    assertThat(config.maySubmit("c", "alice", List.of())).isFalse(); // a's list does not reach c
    assertThat(config.maySubmit("b", "anyone", List.of())).isTrue();
    // Administering a queue includes submitting to it.
    assertThat(config.maySubmit("c", "yarn", List.of())).isTrue();
    assertThat(config.mayAdminister("a2", "frank", List.of("a-leads"))).isTrue();
    assertThat(config.mayAdminister("b", "frank", List.of("a-leads"))).isFalse();
    assertThat(config.maySubmit("no-such-queue", "yarn", List.of())).isFalse();
  }

  @Test
  void preemptionIsInheritedAndSetFromYarnSite() {
    assertThat(config.preemption())
        .isEqualTo(new PreemptionSettings(true, false, Duration.ofSeconds(1), Duration.ofSeconds(10), 0.2f, 0.05, 0.5));
    assertThat(queue("root").preemptionDisabled()).isFalse();
    assertThat(queue("b").preemptionDisabled()).isTrue();
    assertThat(queue("a2").preemptionDisabled()).isFalse();
  }

  @Test
  void schedulerWideSettings() {
    assertThat(config.schedulerWide())
        .isEqualTo(new SchedulerWideSettings(5000, 0.2f, ResourceCalculator.DOMINANT, 20, 10, true, true, 10, 512, 1, 16384, 8));
  }

  @Test
  void mappingsInOrder() {
    assertThat(config.queueMappings())
        .containsExactly(
            new QueueMapping(QueueMapping.Type.USER, "alice", "a1"),
            new QueueMapping(QueueMapping.Type.GROUP, "analysts", "a2"),
            new QueueMapping(QueueMapping.Type.USER, "%user", "%user"),
            new QueueMapping(QueueMapping.Type.USER, "bob", "%primary_group"));
    assertThat(config.queueMappings().get(2).matchesAll()).isTrue();
    assertThat(config.queueMappings().get(0).isStatic()).isTrue();
    assertThat(config.queueMappings().get(3).isStatic()).isFalse();
    assertThat(config.queueMappings()).extracting(QueueMapping::toString)
        .containsExactly("u:alice:a1", "g:analysts:a2", "u:%user:%user", "u:bob:%primary_group");
    assertThat(config.queueMappingsOverride()).isTrue();
  }
}
