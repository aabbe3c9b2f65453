package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import static dev.bobbin.core.policy.fair.FairTestQueues.app;
import static dev.bobbin.core.policy.fair.FairTestQueues.hungry;
import static dev.bobbin.core.policy.fair.FairTestQueues.leaf;
import static dev.bobbin.core.policy.fair.FairTestQueues.mb;
import static dev.bobbin.core.policy.fair.FairTestQueues.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.fair.FairShares.QueueShare;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class FairShareCalculatorTest {

  /**
   * The Cloudera deep dive's example: 12 vcores and 24 GB, tenants weighted 1 : 2 : 1. Steady shares
   * are 25%, 50% and 25% whoever is running; with only tenant1 and tenant2 running they take 1/3 and
   * 2/3 instantaneously, and tenant3 none.
   */
  @Nested
  class TheClouderaExample {
    private final Resource cluster = mb(24 * 1024, 12);

    private QueueSpec tenants(FairPolicyKind rootPolicy) {
      return queue("root").policy(rootPolicy).children(
          leaf("root.tenant1", 1), leaf("root.tenant2", 2), leaf("root.tenant3", 1)).build();
    }

    @Test
    void steadySharesFollowTheWeightsUnderDrf() {
      // 24576 MB and 12 vcores, R = 6144 MB and 3 vcores per unit of weight.
      FairShares s = FairShareCalculator.compute(tenants(FairPolicyKind.DRF), cluster, List.of());
      assertThat(steady(s, "root.tenant1")).isEqualTo(mb(6144, 3));
      assertThat(steady(s, "root.tenant2")).isEqualTo(mb(12288, 6));
      assertThat(steady(s, "root.tenant3")).isEqualTo(mb(6144, 3));
      assertThat(steady(s, "root")).isEqualTo(cluster);
    }

    @Test
    void withOnlyTwoTenantsActiveTheyShareEverything() {
      // tenant1 and tenant2 split 24576 MB and 12 vcores 1 : 2, so 8192 MB / 4 vcores (33.3%) and
      // 16384 MB / 8 vcores (66.7%). tenant3 is inactive: 0, though its steady share is still 25%.
      FairShares s = FairShareCalculator.compute(tenants(FairPolicyKind.DRF), cluster, List.of(
          hungry("application_1_0001", "root.tenant1", 1), hungry("application_1_0002", "root.tenant2", 2)));
      assertThat(fair(s, "root.tenant1")).isEqualTo(mb(8192, 4));
      assertThat(fair(s, "root.tenant2")).isEqualTo(mb(16384, 8));
      assertThat(fair(s, "root.tenant3")).isEqualTo(Resource.NONE);
      assertThat(steady(s, "root.tenant3")).isEqualTo(mb(6144, 3));
      assertThat(s.queues().get("root.tenant3").active()).isFalse();
    }

    @Test
    void whenTheThirdTenantArrivesInstantaneousMeetsSteady() {
      FairShares s = FairShareCalculator.compute(tenants(FairPolicyKind.DRF), cluster, List.of(
          hungry("application_1_0001", "root.tenant1", 1), hungry("application_1_0002", "root.tenant2", 2),
          hungry("application_1_0003", "root.tenant3", 3)));
      for (String t : List.of("root.tenant1", "root.tenant2", "root.tenant3")) {
        assertThat(fair(s, t)).isEqualTo(steady(s, t));
      }
    }

    @Test
    void underFairOnlyMemoryIsSplitAndVcoresStayZero() {
      // Hadoop's FairSharePolicy computes memory only; its queues show vCores:0 in their shares.
      FairShares s = FairShareCalculator.compute(tenants(FairPolicyKind.FAIR), cluster, List.of(
          hungry("application_1_0001", "root.tenant1", 1), hungry("application_1_0002", "root.tenant2", 2)));
      assertThat(steady(s, "root.tenant2")).isEqualTo(mb(12288, 0));
      assertThat(fair(s, "root.tenant1")).isEqualTo(mb(8192, 0));
      assertThat(fair(s, "root.tenant2")).isEqualTo(mb(16384, 0));
      assertThat(fair(s, "root")).isEqualTo(cluster);
    }
  }

  @Test
  void minSharesComeFirst() {
    // 40960 MB; a has weight 1 and a min of 20480, b and c weight 1. At R = 10240 a would get only
    // 10240, so it gets its min; b and c split the 20480 left.
    QueueSpec root = queue("root").children(
        queue("root.a").min(20480, 0).build(), leaf("root.b", 1), leaf("root.c", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b", 2),
        hungry("application_1_0003", "root.c", 3)));
    assertThat(fair(s, "root.a").memory()).isEqualTo(20480);
    assertThat(fair(s, "root.b").memory()).isEqualTo(10240);
    assertThat(fair(s, "root.c").memory()).isEqualTo(10240);
  }

  @Test
  void aMinShareOnAnInactiveQueueHoldsNothingBack() {
    // a's min of 20480 shapes the steady shares, but a runs nothing, so b takes the whole cluster.
    QueueSpec root = queue("root").children(queue("root.a").min(20480, 0).build(), leaf("root.b", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), List.of(hungry("application_1_0001", "root.b", 1)));
    assertThat(steady(s, "root.a").memory()).isEqualTo(20480);
    assertThat(steady(s, "root.b").memory()).isEqualTo(20480);
    assertThat(fair(s, "root.a")).isEqualTo(Resource.NONE);
    assertThat(fair(s, "root.b").memory()).isEqualTo(40960);
  }

  @Test
  void maxSharesCapAndPassTheRestOn() {
    // 40960 MB, a capped at 8192: a gets 8192 and b the 32768 left. Were b capped too (at 16384),
    // 16384 would stay with nobody: shares never exceed a max to use up the parent.
    QueueSpec root = queue("root").children(queue("root.a").max(8192, 100).build(), leaf("root.b", 1)).build();
    List<AppSnapshot> apps = List.of(hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b", 2));
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), apps);
    assertThat(fair(s, "root.a").memory()).isEqualTo(8192);
    assertThat(fair(s, "root.b").memory()).isEqualTo(32768);

    QueueSpec bothCapped = queue("root").children(
        queue("root.a").max(8192, 100).build(), queue("root.b").max(16384, 100).build()).build();
    FairShares capped = FairShareCalculator.compute(bothCapped, mb(40960, 40), apps);
    assertThat(fair(capped, "root.a").memory()).isEqualTo(8192);
    assertThat(fair(capped, "root.b").memory()).isEqualTo(16384);
  }

  @Test
  void aZeroWeightQueueGetsItsMinShareOnly() {
    // a has weight 0 and a min of 4096: it gets exactly 4096, b the other 36864. c has weight 0 and
    // no min: nothing, even though it is active.
    QueueSpec root = queue("root").children(
        queue("root.a").weight(0).min(4096, 0).build(), leaf("root.b", 1), leaf("root.c", 0)).build();
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b", 2),
        hungry("application_1_0003", "root.c", 3)));
    assertThat(fair(s, "root.a").memory()).isEqualTo(4096);
    assertThat(fair(s, "root.b").memory()).isEqualTo(36864);
    assertThat(fair(s, "root.c").memory()).isZero();
  }

  @Test
  void nestedParentsSplitTheirOwnShares() {
    // root (40960 MB) -> a (weight 1), b (weight 3) -> b.x, b.y (weights 1, 1).
    // Steady: a 10240, b 30720, b.x and b.y 15360 each.
    // Only a and b.x run: a and b still split 1 : 3, and b.x takes all of b's 30720.
    QueueSpec root = queue("root").children(
        leaf("root.a", 1),
        queue("root.b").weight(3).children(leaf("root.b.x", 1), leaf("root.b.y", 1)).build()).build();
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b.x", 2)));
    assertThat(steady(s, "root.b.y").memory()).isEqualTo(15360);
    assertThat(fair(s, "root.a").memory()).isEqualTo(10240);
    assertThat(fair(s, "root.b").memory()).isEqualTo(30720);
    assertThat(fair(s, "root.b.x").memory()).isEqualTo(30720);
    assertThat(fair(s, "root.b.y").memory()).isZero();
    assertThat(s.queues().get("root.b").active()).isTrue();
  }

  @Test
  void drfSplitsEachResourceTypeOnItsOwn() {
    // <30720 MB, 30 vcores>, a weight 1, b weight 2 but at most 10 vcores. Memory: 10240 and 20480.
    // Vcores: b stops at 10, so a gets the other 20.
    QueueSpec root = queue("root").policy(FairPolicyKind.DRF).children(
        leaf("root.a", 1), queue("root.b").weight(2).max(1L << 40, 10).build()).build();
    FairShares s = FairShareCalculator.compute(root, mb(30720, 30), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b", 2)));
    assertThat(fair(s, "root.a")).isEqualTo(mb(10240, 20));
    assertThat(fair(s, "root.b")).isEqualTo(mb(20480, 10));
  }

  @Test
  void applicationsInAFairLeafShareItEqually() {
    // The leaf holds the whole 12288 MB; three applications, 4096 each, whatever they ask for.
    // Like Hadoop, a small demand does not lower an application's share.
    QueueSpec root = queue("root").children(leaf("root.a", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(12288, 12), List.of(
        hungry("application_1_0001", "root.a", 1),
        app("application_1_0002", "root.a", 2, mb(1024, 1), Resource.NONE),
        hungry("application_1_0003", "root.a", 3)));
    assertThat(s.apps()).containsValues(mb(4096, 0)).hasSize(3)
        .allSatisfy((id, share) -> assertThat(share).isEqualTo(mb(4096, 0)));
  }

  @Test
  void applicationsInADrfLeafShareBothTypes() {
    QueueSpec root = queue("root").policy(FairPolicyKind.DRF)
        .children(queue("root.a").policy(FairPolicyKind.DRF).build()).build();
    FairShares s = FairShareCalculator.compute(root, mb(12288, 12), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.a", 2)));
    assertThat(s.apps().get("application_1_0001")).isEqualTo(mb(6144, 6));
    assertThat(s.apps().get("application_1_0002")).isEqualTo(mb(6144, 6));
  }

  @Test
  void aFifoLeafGivesEverythingToItsEarliestApplication() {
    // Hadoop's FifoPolicy.computeShares: the earliest start time takes the leaf's whole share, here
    // <12288, 0> as the FAIR root split memory only.
    QueueSpec root = queue("root").children(queue("root.a").policy(FairPolicyKind.FIFO).build()).build();
    FairShares s = FairShareCalculator.compute(root, mb(12288, 12), List.of(
        hungry("application_1_0002", "root.a", 20), hungry("application_1_0001", "root.a", 10)));
    assertThat(s.apps().get("application_1_0001")).isEqualTo(mb(12288, 0));
    assertThat(s.apps().get("application_1_0002")).isEqualTo(Resource.NONE);
  }

  @Test
  void usageAddsUpAndDemandIsCappedAtTheMaxShare() {
    // a holds 2048 + 1024 MB and asks for 6144 + 1024 more: demand 10240, capped at a's max of 8192.
    QueueSpec root = queue("root").children(queue("root.a").max(8192, 100).build(), leaf("root.b", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(40960, 40), List.of(
        app("application_1_0001", "root.a", 1, mb(2048, 2), mb(6144, 6)),
        app("application_1_0002", "root.a", 2, mb(1024, 1), mb(1024, 1))));
    QueueShare a = s.queues().get("root.a");
    assertThat(a.usage()).isEqualTo(mb(3072, 3));
    assertThat(a.demand()).isEqualTo(mb(8192, 10));
    assertThat(s.queues().get("root").usage()).isEqualTo(mb(3072, 3));
    assertThat(s.queues().get("root.b").demand()).isEqualTo(Resource.NONE);
  }

  @Test
  void applicationsBeyondMaxRunningAppsGetNoShare() {
    // a runs at most one application: the earlier one gets a's whole share, the later none.
    QueueSpec root = queue("root").children(queue("root.a").maxRunningApps(1).build()).build();
    FairShares s = FairShareCalculator.compute(root, mb(8192, 8), List.of(
        hungry("application_1_0002", "root.a", 20), hungry("application_1_0001", "root.a", 10)));
    assertThat(s.apps().get("application_1_0001").memory()).isEqualTo(8192);
    assertThat(s.apps().get("application_1_0002")).isEqualTo(Resource.NONE);
  }

  @Test
  void aQueueThatMayRunNothingIsInactive() {
    QueueSpec root = queue("root").children(queue("root.a").maxRunningApps(0).build(), leaf("root.b", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(8192, 8), List.of(
        hungry("application_1_0001", "root.a", 1), hungry("application_1_0002", "root.b", 2)));
    assertThat(s.queues().get("root.a").active()).isFalse();
    assertThat(fair(s, "root.b").memory()).isEqualTo(8192);
  }

  @Test
  void anApplicationOutsideTheTreeIsListedWithNothing() {
    QueueSpec root = queue("root").children(leaf("root.a", 1)).build();
    FairShares s = FairShareCalculator.compute(root, mb(8192, 8), List.of(hungry("application_1_0001", "root.gone", 1)));
    assertThat(s.apps()).containsEntry("application_1_0001", Resource.NONE);
    assertThat(s.queues().get("root.a").active()).isFalse();
  }

  private static Resource steady(FairShares s, String path) {
    return s.queues().get(path).steadyFairShare();
  }

  private static Resource fair(FairShares s, String path) {
    return s.queues().get(path).fairShare();
  }
}
