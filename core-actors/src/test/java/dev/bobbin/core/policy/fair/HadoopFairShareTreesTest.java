package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.FairTestQueues.mb;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.appShare;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.assertSteadyAndFair;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.fair;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.hadoopQueue;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.leaf;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.root;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.runningIn;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.steady;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Steady, instantaneous and per-application shares on queue trees, as Hadoop's
 * {@code TestFairSchedulerFairShare} and the fair-share cases of {@code TestFairScheduler} set
 * them up. Every expected number is what Hadoop 3.4's FairScheduler reports for the same tree,
 * cluster and running applications, to the unit, vcores included: under FAIR a queue's vcores
 * stay 0, as Hadoop's FairSharePolicy shares memory only.
 *
 * <p>The trees are Hadoop's as they stand when the test reads the shares: {@code root.default}
 * is there when the test configures or uses it, and absent otherwise.
 */
class HadoopFairShareTreesTest {

  /**
   * root: default (weight 1), parentA (weight 8) holding childA1..childA4, parentB (weight 1)
   * holding childB1 and childB2, on one 16 GB node. Steady shares: parentA 13108, default and
   * parentB 1638 each; the childA queues 3277 and the childB queues 819, whoever runs.
   */
  @Nested
  class TwoParentsUnderRoot {
    private static final long MEMORY = 16 * 1024;

    private QueueSpec tree(FairPolicyKind policy) {
      return root(policy,
          hadoopQueue("root.default").policy(policy).build(),
          hadoopQueue("root.parentA").weight(8).policy(policy).children(
              withPolicy("root.parentA.childA1", policy), withPolicy("root.parentA.childA2", policy),
              withPolicy("root.parentA.childA3", policy), withPolicy("root.parentA.childA4", policy)).build(),
          hadoopQueue("root.parentB").policy(policy).children(
              withPolicy("root.parentB.childB1", policy), withPolicy("root.parentB.childB2", policy)).build());
    }

    /** The allocation file's default policy applies to every queue, leaves included. */
    private QueueSpec withPolicy(String path, FairPolicyKind policy) {
      return hadoopQueue(path).policy(policy).build();
    }

    private FairShares fairTree(String... running) {
      return FairShareCalculator.compute(tree(FairPolicyKind.FAIR), mb(MEMORY, 0), runningIn(running));
    }

    private void assertSteadySharesFollowTheWeights(FairShares s) {
      assertThat(steady(s, "root.default")).isEqualTo(mb(1638, 0));
      assertThat(steady(s, "root.parentA")).isEqualTo(mb(13108, 0));
      assertThat(steady(s, "root.parentB")).isEqualTo(mb(1638, 0));
      for (int i = 1; i <= 4; i++) assertThat(steady(s, "root.parentA.childA" + i)).isEqualTo(mb(3277, 0));
      assertThat(steady(s, "root.parentB.childB1")).isEqualTo(mb(819, 0));
      assertThat(steady(s, "root.parentB.childB2")).isEqualTo(mb(819, 0));
    }

    @Test
    void withNothingRunningEveryLeafHasNoInstantaneousShare() {
      FairShares s = fairTree();
      for (String leaf : List.of("root.default", "root.parentA.childA1", "root.parentA.childA2",
          "root.parentA.childA3", "root.parentA.childA4", "root.parentB.childB1", "root.parentB.childB2")) {
        assertThat(fair(s, leaf)).as(leaf).isEqualTo(Resource.NONE);
      }
      assertSteadySharesFollowTheWeights(s);
    }

    @Test
    void theOnlyActiveQueueTakesTheWholeCluster() {
      FairShares s = fairTree("root.parentA.childA1");
      assertThat(fair(s, "root.parentA.childA1")).isEqualTo(mb(16384, 0));
      assertThat(fair(s, "root.parentA.childA2")).isEqualTo(Resource.NONE);
      assertThat(appShare(s, 1)).isEqualTo(mb(16384, 0));
      assertSteadySharesFollowTheWeights(s);
    }

    @Test
    void threeActiveQueuesUnderOneParentSplitItsShare() {
      // 16384 / 3 = 5461.3, each share taken at the top of the search bracket: 5462.
      FairShares s = fairTree("root.parentA.childA1", "root.parentA.childA2", "root.parentA.childA3");
      for (int i = 1; i <= 3; i++) {
        assertThat(fair(s, "root.parentA.childA" + i)).isEqualTo(mb(5462, 0));
        assertThat(appShare(s, i)).isEqualTo(mb(5462, 0));
      }
      assertThat(fair(s, "root.parentA.childA4")).isEqualTo(Resource.NONE);
      assertSteadySharesFollowTheWeights(s);
    }

    @Test
    void activeQueuesUnderDifferentParents() {
      // default, parentA and parentB are all active: 1638 / 13108 / 1638. childA1 and childA2 split
      // parentA's 13108, childB1 takes all of parentB's 1638.
      FairShares s = fairTree("root.parentA.childA1", "root.parentA.childA2", "root.parentB.childB1", "root.default");
      assertThat(fair(s, "root.parentA")).isEqualTo(mb(13108, 0));
      assertThat(fair(s, "root.parentA.childA1")).isEqualTo(mb(6554, 0));
      assertThat(fair(s, "root.parentA.childA2")).isEqualTo(mb(6554, 0));
      assertThat(fair(s, "root.parentA.childA3")).isEqualTo(Resource.NONE);
      assertThat(fair(s, "root.parentB.childB1")).isEqualTo(mb(1638, 0));
      assertThat(fair(s, "root.parentB.childB2")).isEqualTo(Resource.NONE);
      assertThat(fair(s, "root.default")).isEqualTo(mb(1638, 0));
      assertThat(appShare(s, 1)).isEqualTo(mb(6554, 0));
      assertThat(appShare(s, 3)).isEqualTo(mb(1638, 0));
      assertThat(appShare(s, 4)).isEqualTo(mb(1638, 0));
      assertSteadySharesFollowTheWeights(s);
    }

    @Test
    void aQueueWhoseApplicationFinishedFallsBackToZero() {
      FairShares both = fairTree("root.parentA.childA1", "root.parentA.childA2");
      assertThat(fair(both, "root.parentA.childA1")).isEqualTo(mb(8192, 0));
      assertThat(fair(both, "root.parentA.childA2")).isEqualTo(mb(8192, 0));

      // The first application is gone from the next snapshot: childA2 is the only active queue.
      FairShares after = FairShareCalculator.compute(tree(FairPolicyKind.FAIR), mb(MEMORY, 0),
          runningIn("root.parentA.childA1", "root.parentA.childA2").subList(1, 2));
      assertThat(fair(after, "root.parentA.childA1")).isEqualTo(Resource.NONE);
      assertThat(fair(after, "root.parentA.childA2")).isEqualTo(mb(16384, 0));
      assertSteadySharesFollowTheWeights(after);
    }

    @Test
    void drfSharesVcoresTooAndTakesEachAtTheTopOfItsBracket() {
      // 16 GB and 10 vcores. parentB's one steady vcore becomes one for each of its two children.
      FairShares s = FairShareCalculator.compute(tree(FairPolicyKind.DRF), mb(MEMORY, 10), runningIn(
          "root.parentA.childA1", "root.parentA.childA2", "root.parentB.childB1", "root.default"));
      assertThat(fair(s, "root.parentA")).isEqualTo(mb(13108, 8));
      assertThat(fair(s, "root.parentA.childA1")).isEqualTo(mb(6554, 4));
      assertThat(fair(s, "root.parentA.childA2")).isEqualTo(mb(6554, 4));
      assertThat(fair(s, "root.parentB.childB1")).isEqualTo(mb(1638, 1));
      assertThat(fair(s, "root.default")).isEqualTo(mb(1638, 1));
      assertThat(appShare(s, 1)).isEqualTo(mb(6554, 4));
      assertThat(appShare(s, 3)).isEqualTo(mb(1638, 1));

      assertThat(steady(s, "root.parentA")).isEqualTo(mb(13108, 8));
      assertThat(steady(s, "root.parentB")).isEqualTo(mb(1638, 1));
      for (int i = 1; i <= 4; i++) assertThat(steady(s, "root.parentA.childA" + i)).isEqualTo(mb(3277, 2));
      assertThat(steady(s, "root.parentB.childB1")).isEqualTo(mb(819, 1));
      assertThat(steady(s, "root.parentB.childB2")).isEqualTo(mb(819, 1));
    }
  }

  /** The single-node clusters of {@code TestFairScheduler}'s fair-share cases. */
  @Nested
  class SchedulerCases {

    @Test
    void threeQueuesShareTenGigabytes() {
      // 10240 / 3 = 3413.3: 3414 each, steady and instantaneous.
      QueueSpec tree = root(leaf("root.default"), leaf("root.queue1"), leaf("root.queue2"));
      FairShares s = FairShareCalculator.compute(tree, mb(10 * 1024, 1),
          runningIn("root.queue1", "root.queue2", "root.default"));
      for (String q : List.of("root.default", "root.queue1", "root.queue2")) {
        assertSteadyAndFair(s, q, mb(3414, 0));
      }
    }

    @Test
    void aParentSplitsItsHalfBetweenItsChildren() {
      // 240 MB: default and parent 120 each, parent.queue2 and parent.queue3 60 each.
      QueueSpec tree = root(leaf("root.default"),
          hadoopQueue("root.parent").children(leaf("root.parent.queue2"), leaf("root.parent.queue3")).build());
      FairShares s = FairShareCalculator.compute(tree, mb(10 * 24, 1),
          runningIn("root.parent.queue2", "root.parent.queue3", "root.default"));
      assertSteadyAndFair(s, "root.default", mb(120, 0));
      for (String q : List.of("root.parent.queue2", "root.parent.queue3")) {
        assertSteadyAndFair(s, q, mb(60, 0));
      }
      assertThat(appShare(s, 1)).isEqualTo(mb(60, 0));
      assertThat(appShare(s, 3)).isEqualTo(mb(120, 0));
    }

    @Test
    void maxResourcesAboveTheClusterDoNotMatter() {
      // Weights 0.25 and 0.75 of 8 GB, both capped at 1073741824 MB and 1000 vcores.
      QueueSpec tree = root(
          hadoopQueue("root.queueA").weight(0.25).max(1073741824L, 1000).build(),
          hadoopQueue("root.queueB").weight(0.75).max(1073741824L, 1000).build());
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      assertSteadyAndFair(s, "root.queueA", mb(2048, 0));
      assertSteadyAndFair(s, "root.queueB", mb(6144, 0));
    }

    @Test
    void lowMaxResourcesCapBothQueues() {
      // By weight queueA would get 6 GB, but it stops at 1024; queueB then stops at its 3072.
      QueueSpec tree = root(
          hadoopQueue("root.queueA").weight(0.75).max(1024, 1).build(),
          hadoopQueue("root.queueB").weight(0.25).max(3072, 3).build());
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      assertSteadyAndFair(s, "root.queueA", mb(1024, 0));
      assertSteadyAndFair(s, "root.queueB", mb(3072, 0));
    }

    @Test
    void zeroWeightQueuesGetNothing() {
      QueueSpec tree = root(leaf("root.queueA", 0), leaf("root.queueB", 0));
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      for (String q : List.of("root.queueA", "root.queueB")) {
        assertSteadyAndFair(s, q, Resource.NONE);
      }
      assertThat(appShare(s, 1)).isEqualTo(Resource.NONE);
    }

    @Test
    void zeroWeightQueuesBesideAWeightedOneUnderDrf() {
      // The queues of the maximum-AM-resource case: two of weight 0 (one capped at 4096 MB and 4
      // vcores) get nothing, the weight-1 queue the whole 20 GB and 20 vcores.
      QueueSpec tree = root(FairPolicyKind.DRF,
          hadoopQueue("root.queueFSZeroWithMax").weight(0).max(4096, 4).policy(FairPolicyKind.DRF).build(),
          hadoopQueue("root.queueFSZeroWithAVL").weight(0).policy(FairPolicyKind.DRF).build(),
          hadoopQueue("root.queueFSNonZero").policy(FairPolicyKind.DRF).build());
      FairShares s = FairShareCalculator.compute(tree, mb(20 * 1024, 20),
          runningIn("root.queueFSZeroWithMax", "root.queueFSZeroWithAVL", "root.queueFSNonZero"));
      assertSteadyAndFair(s, "root.queueFSZeroWithMax", Resource.NONE);
      assertSteadyAndFair(s, "root.queueFSZeroWithAVL", Resource.NONE);
      assertSteadyAndFair(s, "root.queueFSNonZero", mb(20480, 20));
      assertThat(appShare(s, 3)).isEqualTo(mb(20480, 20));
    }

    @Test
    void zeroWeightQueuesGetTheirMins() {
      // Weight 0 and a min of 1 MB and 1 vcore: exactly 1 MB (FAIR leaves vcores at 0).
      QueueSpec tree = root(hadoopQueue("root.queueA").weight(0).min(1, 1).build(),
          hadoopQueue("root.queueB").weight(0).min(1, 1).build());
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      for (String q : List.of("root.queueA", "root.queueB")) {
        assertSteadyAndFair(s, q, mb(1, 0));
      }
    }

    @Test
    void minsBelowTheWeightedShareDoNotMatter() {
      QueueSpec tree = root(hadoopQueue("root.queueA").weight(0.5).min(1024, 1).build(),
          hadoopQueue("root.queueB").weight(0.5).min(1024, 1).build());
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      assertSteadyAndFair(s, "root.queueA", mb(4096, 0));
      assertSteadyAndFair(s, "root.queueB", mb(4096, 0));
    }

    @Test
    void sharesFollowFractionalWeights() {
      // Hadoop reports these as the queues' capacities: 0.25 and 0.75 of 8 GB.
      QueueSpec tree = root(leaf("root.queueA", 0.25), leaf("root.queueB", 0.75));
      FairShares s = FairShareCalculator.compute(tree, mb(8 * 1024, 8), runningIn("root.queueA", "root.queueB"));
      assertSteadyAndFair(s, "root.queueA", mb(2048, 0));
      assertSteadyAndFair(s, "root.queueB", mb(6144, 0));
    }

    @Test
    void aTinyWeightRoundsToNothing() {
      // Weights 0, 2 and 0.000001 under DRF on 8 GB and 20 vcores: the tiny weight's share is below
      // one unit, so queue2 holds everything.
      QueueSpec tree = root(FairPolicyKind.DRF,
          hadoopQueue("root.queue1").weight(0).max(4096, 10).policy(FairPolicyKind.DRF).build(),
          hadoopQueue("root.queue2").weight(2).policy(FairPolicyKind.DRF).build(),
          hadoopQueue("root.queue3").weight(0.000001).policy(FairPolicyKind.DRF).build());
      FairShares s = FairShareCalculator.compute(tree, mb(8192, 20),
          runningIn("root.queue2", "root.queue1", "root.queue3"));
      assertSteadyAndFair(s, "root.queue1", Resource.NONE);
      assertSteadyAndFair(s, "root.queue2", mb(8192, 20));
      assertSteadyAndFair(s, "root.queue3", Resource.NONE);
    }

    @Test
    void minsThatAddUpToTheClusterAreTheShares() {
      QueueSpec tree = root(hadoopQueue("root.queueA").min(1024, 0).build(),
          hadoopQueue("root.queueB").min(2048, 0).build());
      FairShares s = FairShareCalculator.compute(tree, mb(3 * 1024, 1), runningIn("root.queueA", "root.queueB"));
      assertSteadyAndFair(s, "root.queueA", mb(1024, 0));
      assertSteadyAndFair(s, "root.queueB", mb(2048, 0));
    }

    @Test
    void userQueuesUnderAParentWithAMin() {
      // parentq (min 1024 MB) holds a queue per user, as a nested user-queue placement rule creates
      // them; with default beside it each user queue gets a quarter of 16 GB, steady and instantaneous.
      QueueSpec tree = root(leaf("root.default"),
          hadoopQueue("root.parentq").min(1024, 0)
              .children(leaf("root.parentq.user1"), leaf("root.parentq.user2")).build());
      FairShares s = FairShareCalculator.compute(tree, mb(16 * 1024, 1),
          runningIn("root.parentq.user1", "root.parentq.user2", "root.default"));
      for (String q : List.of("root.parentq.user1", "root.parentq.user2")) {
        assertSteadyAndFair(s, q, mb(4096, 0));
      }
      assertSteadyAndFair(s, "root.default", mb(8192, 0));
    }

    @Test
    void steadySharesFollowTheClusterAndTheConfiguration() {
      // A DRF root with FAIR leaves, first default, child1 and child2 of weight 1, then default and
      // child1 of weight 1 with child2 and child3 of weight 2. One node of 6144 MB and one vcore
      // comes and goes. The single vcore goes to every queue whose weight reaches it.
      QueueSpec three = root(FairPolicyKind.DRF, leaf("root.default"), leaf("root.child1"), leaf("root.child2"));
      QueueSpec four = root(FairPolicyKind.DRF, leaf("root.default"), leaf("root.child1"), leaf("root.child2", 2),
          leaf("root.child3", 2));

      FairShares noNode = FairShareCalculator.compute(three, Resource.NONE, List.of());
      assertThat(steady(noNode, "root.child1")).isEqualTo(Resource.NONE);
      assertThat(steady(noNode, "root.child2")).isEqualTo(Resource.NONE);

      FairShares oneNode = FairShareCalculator.compute(three, mb(6144, 1), List.of());
      for (String q : List.of("root.default", "root.child1", "root.child2")) {
        assertThat(steady(oneNode, q)).as(q).isEqualTo(mb(2048, 1));
      }

      FairShares reloaded = FairShareCalculator.compute(four, mb(6144, 1), List.of());
      assertThat(steady(reloaded, "root.default")).isEqualTo(mb(1024, 0));
      assertThat(steady(reloaded, "root.child1")).isEqualTo(mb(1024, 0));
      assertThat(steady(reloaded, "root.child2")).isEqualTo(mb(2048, 1));
      assertThat(steady(reloaded, "root.child3")).isEqualTo(mb(2048, 1));

      FairShares nodeGone = FairShareCalculator.compute(four, Resource.NONE, List.of());
      assertThat(steady(nodeGone, "root.child1")).isEqualTo(Resource.NONE);
      assertThat(steady(nodeGone, "root.child2")).isEqualTo(Resource.NONE);
    }

    @Test
    void aQueueCreatedAtRunTimeTakesHalfTheSteadyShare() {
      QueueSpec defaultOnly = root(FairPolicyKind.DRF, leaf("root.default"));
      assertThat(steady(FairShareCalculator.compute(defaultOnly, mb(6144, 1), List.of()), "root.default"))
          .isEqualTo(mb(6144, 1));

      // user1 runs an application: it and default split the steady share; user1 alone is active.
      // Its FAIR leaf hands the application memory only.
      QueueSpec withUser = root(FairPolicyKind.DRF, leaf("root.default"), leaf("root.user1"));
      FairShares s = FairShareCalculator.compute(withUser, mb(6144, 1), runningIn("root.user1"));
      assertThat(steady(s, "root.default")).isEqualTo(mb(3072, 1));
      assertThat(steady(s, "root.user1")).isEqualTo(mb(3072, 1));
      assertThat(fair(s, "root.user1")).isEqualTo(mb(6144, 1));
      assertThat(appShare(s, 1)).isEqualTo(mb(6144, 0));
    }

    @Test
    void queuesWithNothingRunningHaveNoInstantaneousShare() {
      // The queues of the maximum-AM-share cases before any application arrives.
      FairShares one = FairShareCalculator.compute(root(hadoopQueue("root.queue1").maxAmShare(0.2f).build()),
          mb(20480, 20), List.of());
      assertThat(fair(one, "root.queue1")).isEqualTo(Resource.NONE);
      assertThat(steady(one, "root.queue1")).isEqualTo(mb(20480, 0));

      QueueSpec five = root(leaf("root.queue1"), hadoopQueue("root.queue2").maxAmShare(0.4f).build(),
          hadoopQueue("root.queue3").max(10240, 4).build(), leaf("root.queue4"), leaf("root.queue5"));
      FairShares s = FairShareCalculator.compute(five, mb(8192, 10), List.of());
      for (int i = 1; i <= 5; i++) {
        assertThat(fair(s, "root.queue" + i)).as("queue%d", i).isEqualTo(Resource.NONE);
        // 8192 / 5 = 1638.4, taken at the top of the bracket.
        assertThat(steady(s, "root.queue" + i)).as("queue%d", i).isEqualTo(mb(1639, 0));
      }
    }
  }

  /** Non-integer weights, which Hadoop holds as floats, and how leaves hand their share to applications. */
  @Nested
  class FloatWeightsAndLeafPolicies {

    @Test
    void weightsAreFloatsNotDoubles() {
      // With the weights as doubles the search would give 462 / 539; as floats, 462 / 538.
      QueueSpec tree = root(leaf("root.a", 0.6), leaf("root.b", 0.7));
      FairShares s = FairShareCalculator.compute(tree, mb(1000, 1), runningIn("root.a", "root.b"));
      assertSteadyAndFair(s, "root.a", mb(462, 0));
      assertSteadyAndFair(s, "root.b", mb(538, 0));
      assertThat(appShare(s, 2)).isEqualTo(mb(538, 0));
    }

    @Test
    void floatWeightsInBothResourceTypes() {
      QueueSpec pointTwoPointNine = root(leaf("root.a", 0.2), leaf("root.b", 0.9));
      FairShares s = FairShareCalculator.compute(pointTwoPointNine, mb(1000, 1), List.of());
      assertThat(steady(s, "root.a")).isEqualTo(mb(182, 0));
      assertThat(steady(s, "root.b")).isEqualTo(mb(818, 0));

      QueueSpec drf = root(FairPolicyKind.DRF, hadoopQueue("root.a").weight(0.7).policy(FairPolicyKind.DRF).build(),
          hadoopQueue("root.b").weight(1.1).policy(FairPolicyKind.DRF).build());
      FairShares d = FairShareCalculator.compute(drf, mb(1007, 1007), List.of());
      assertThat(steady(d, "root.a")).isEqualTo(mb(391, 391));
      assertThat(steady(d, "root.b")).isEqualTo(mb(616, 616));
    }

    @Test
    void aFifoLeafGivesItsShareToTheEarliestApplication() {
      QueueSpec tree = root(hadoopQueue("root.a").policy(FairPolicyKind.FIFO).build(), leaf("root.b"));
      FairShares s = FairShareCalculator.compute(tree, mb(8192, 8), runningIn("root.a", "root.a", "root.b"));
      assertThat(appShare(s, 1)).isEqualTo(mb(4096, 0));
      assertThat(appShare(s, 2)).isEqualTo(Resource.NONE);
      assertThat(appShare(s, 3)).isEqualTo(mb(4096, 0));

      // Under a DRF root the leaf holds vcores too, and the earliest application takes them with the
      // memory; b's FAIR leaf passes memory only.
      QueueSpec drfRoot = root(FairPolicyKind.DRF, hadoopQueue("root.a").policy(FairPolicyKind.FIFO).build(),
          leaf("root.b"));
      FairShares d = FairShareCalculator.compute(drfRoot, mb(8192, 8), runningIn("root.a", "root.a", "root.b"));
      assertThat(appShare(d, 1)).isEqualTo(mb(4096, 4));
      assertThat(appShare(d, 2)).isEqualTo(Resource.NONE);
      assertThat(appShare(d, 3)).isEqualTo(mb(4096, 0));
    }

    @Test
    void aDrfLeafGivesEachApplicationTheTopOfTheBracket() {
      // 10000 MB and 10 vcores among three applications: 3334 MB and 4 vcores each, more than the leaf.
      QueueSpec tree = root(FairPolicyKind.DRF, hadoopQueue("root.a").policy(FairPolicyKind.DRF).build());
      FairShares s = FairShareCalculator.compute(tree, mb(10000, 10), runningIn("root.a", "root.a", "root.a"));
      for (int i = 1; i <= 3; i++) assertThat(appShare(s, i)).isEqualTo(mb(3334, 4));
    }
  }
}
