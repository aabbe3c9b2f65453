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
import org.junit.jupiter.api.Test;

/**
 * Where Hadoop's share arithmetic has quirks that a tidier split would lose: its search for the
 * weight-to-share ratio stops after 25 halvings (or early, when the shares add up exactly), and
 * every share is taken at the top of the last bracket, so shares may add up to more than the
 * parent holds; mins are handed out in full even when they add up to more than the parent. Each
 * expected number is the one Hadoop 3.4's FairScheduler reports for the same queues, cluster and
 * running applications.
 */
class HadoopShareDifferencesTest {

  @Test
  void anOddMegabyteGoesToBothQueues() {
    // 1025 MB between two equal queues: 513 each, 1026 in all.
    QueueSpec tree = root(leaf("root.a"), leaf("root.b"));
    FairShares idle = FairShareCalculator.compute(tree, mb(1025, 1), List.of());
    assertThat(steady(idle, "root.a")).isEqualTo(mb(513, 0));
    assertThat(steady(idle, "root.b")).isEqualTo(mb(513, 0));

    FairShares busy = FairShareCalculator.compute(tree, mb(1025, 1), runningIn("root.a", "root.b"));
    assertThat(fair(busy, "root.a")).isEqualTo(mb(513, 0));
    assertThat(fair(busy, "root.b")).isEqualTo(mb(513, 0));
    assertThat(appShare(busy, 2)).isEqualTo(mb(513, 0));
  }

  @Test
  void anOddVcoreGoesToBothQueuesUnderDrf() {
    // 3 vcores between two equal DRF queues: 2 each, 4 in all.
    QueueSpec tree = root(FairPolicyKind.DRF, drfLeaf("root.a"), drfLeaf("root.b"));
    FairShares idle = FairShareCalculator.compute(tree, mb(2048, 3), List.of());
    assertThat(steady(idle, "root.a")).isEqualTo(mb(1024, 2));
    assertThat(steady(idle, "root.b")).isEqualTo(mb(1024, 2));

    FairShares busy = FairShareCalculator.compute(tree, mb(2048, 3), runningIn("root.a", "root.b"));
    assertThat(fair(busy, "root.a")).isEqualTo(mb(1024, 2));
    assertThat(fair(busy, "root.b")).isEqualTo(mb(1024, 2));
    assertThat(appShare(busy, 1)).isEqualTo(mb(1024, 2));
  }

  @Test
  void threeActiveQueuesOfFourEachTakeTheRoundedUpThird() {
    // 10000 MB, four equal queues, d idle. a, b and c get 3334 each (10002 in all), and a's three
    // applications 1112 each (3336 of a's 3334).
    QueueSpec tree = root(leaf("root.a"), leaf("root.b"), leaf("root.c"), leaf("root.d"));
    FairShares s = FairShareCalculator.compute(tree, mb(10000, 10),
        runningIn("root.a", "root.a", "root.a", "root.b", "root.c"));
    assertThat(fair(s, "root.a")).isEqualTo(mb(3334, 0));
    assertThat(fair(s, "root.b")).isEqualTo(mb(3334, 0));
    assertThat(fair(s, "root.c")).isEqualTo(mb(3334, 0));
    assertThat(fair(s, "root.d")).isEqualTo(Resource.NONE);
    assertThat(steady(s, "root.d")).isEqualTo(mb(2500, 0));
    for (int i = 1; i <= 3; i++) assertThat(appShare(s, i)).as("application %d in a", i).isEqualTo(mb(1112, 0));
    assertThat(appShare(s, 4)).isEqualTo(mb(3334, 0));
  }

  @Test
  void weightsTenAndOneOn1029Megabytes() {
    // The exact split is 935.45 / 93.55; the top of Hadoop's last bracket gives 936 / 93.
    QueueSpec tree = root(leaf("root.a", 10), leaf("root.b", 1));
    FairShares s = FairShareCalculator.compute(tree, mb(1029, 1), runningIn("root.a", "root.b"));
    assertSteadyAndFair(s, "root.a", mb(936, 0));
    assertSteadyAndFair(s, "root.b", mb(93, 0));
  }

  @Test
  void aMinAboveTheClusterIsHandedOutInFull() {
    QueueSpec tree = root(hadoopQueue("root.a").min(2048, 0).build());
    FairShares s = FairShareCalculator.compute(tree, mb(1024, 1), runningIn("root.a"));
    assertSteadyAndFair(s, "root.a", mb(2048, 0));
    assertThat(appShare(s, 1)).isEqualTo(mb(2048, 0));
  }

  @Test
  void minsThatAddUpToMoreThanTheClusterAreNotScaledDown() {
    // 1024 MB, a and b each with a min of 1024 MB: 1024 each, 2048 in all.
    QueueSpec tree = root(hadoopQueue("root.a").min(1024, 0).build(), hadoopQueue("root.b").min(1024, 0).build());
    FairShares s = FairShareCalculator.compute(tree, mb(1024, 1), runningIn("root.a", "root.b"));
    assertSteadyAndFair(s, "root.a", mb(1024, 0));
    assertSteadyAndFair(s, "root.b", mb(1024, 0));
  }

  @Test
  void aChildKeepsItsMinUnderAZeroWeightParent() {
    // p has weight 0 and no min, so it gets 0 and q the whole 2048 MB; p's child c still gets its
    // min of 512 out of p's nothing, and its sibling d 0.
    QueueSpec tree = root(
        hadoopQueue("root.p").weight(0).children(hadoopQueue("root.p.c").min(512, 0).build(), leaf("root.p.d")).build(),
        leaf("root.q"));
    FairShares idle = FairShareCalculator.compute(tree, mb(2048, 1), List.of());
    assertThat(steady(idle, "root.p")).isEqualTo(Resource.NONE);
    assertThat(steady(idle, "root.p.c")).isEqualTo(mb(512, 0));
    assertThat(steady(idle, "root.p.d")).isEqualTo(Resource.NONE);
    assertThat(steady(idle, "root.q")).isEqualTo(mb(2048, 0));

    FairShares busy = FairShareCalculator.compute(tree, mb(2048, 1), runningIn("root.p.c", "root.p.d", "root.q"));
    assertThat(fair(busy, "root.p")).isEqualTo(Resource.NONE);
    assertThat(fair(busy, "root.p.c")).isEqualTo(mb(512, 0));
    assertThat(fair(busy, "root.p.d")).isEqualTo(Resource.NONE);
    assertThat(fair(busy, "root.q")).isEqualTo(mb(2048, 0));
    assertThat(appShare(busy, 1)).isEqualTo(mb(512, 0));
  }

  @Test
  void aHugeClusterStopsTheSearchShortOfTheExactRatio() {
    // 100,000,000 MB by weights 10 and 1: 25 halvings leave the ratio a little high, so a gets
    // 90,909,095 rather than 90,909,091; a's one application, searched again, 90,909,096.
    QueueSpec tree = root(leaf("root.a", 10), leaf("root.b", 1));
    FairShares s = FairShareCalculator.compute(tree, mb(100_000_000L, 100_000), runningIn("root.a", "root.b"));
    assertSteadyAndFair(s, "root.a", mb(90_909_095L, 0));
    assertSteadyAndFair(s, "root.b", mb(9_090_909L, 0));
    assertThat(appShare(s, 1)).isEqualTo(mb(90_909_096L, 0));
    assertThat(appShare(s, 2)).isEqualTo(mb(9_090_909L, 0));
  }

  @Test
  void aHugeClusterUnderDrf() {
    QueueSpec tree = root(FairPolicyKind.DRF,
        hadoopQueue("root.a").weight(10).policy(FairPolicyKind.DRF).build(),
        hadoopQueue("root.b").policy(FairPolicyKind.DRF).build());
    FairShares s = FairShareCalculator.compute(tree, mb(100_000_000L, 100_000), runningIn("root.a", "root.b"));
    assertSteadyAndFair(s, "root.a", mb(90_909_095L, 90_910));
    assertSteadyAndFair(s, "root.b", mb(9_090_909L, 9_091));
    assertThat(appShare(s, 1)).isEqualTo(mb(90_909_096L, 90_910));
    assertThat(appShare(s, 2)).isEqualTo(mb(9_090_909L, 9_091));
  }

  @Test
  void differentParentsUnderDrf() {
    // Hadoop's own different-parents case: 16 GB and 10 vcores; root holds default (1), parentA (8)
    // with four children and parentB (1) with two. parentA's 13107.2 MB becomes 13108, its two
    // active children 6554 each; parentB's single steady vcore becomes one for each child.
    FairPolicyKind drf = FairPolicyKind.DRF;
    QueueSpec tree = root(drf,
        drfLeaf("root.default"),
        hadoopQueue("root.parentA").weight(8).policy(drf).children(drfLeaf("root.parentA.childA1"),
            drfLeaf("root.parentA.childA2"), drfLeaf("root.parentA.childA3"), drfLeaf("root.parentA.childA4")).build(),
        hadoopQueue("root.parentB").policy(drf).children(drfLeaf("root.parentB.childB1"),
            drfLeaf("root.parentB.childB2")).build());
    FairShares s = FairShareCalculator.compute(tree, mb(16 * 1024, 10), runningIn(
        "root.parentA.childA1", "root.parentA.childA2", "root.parentB.childB1", "root.default"));
    assertThat(steady(s, "root.parentA").memory()).isEqualTo(13108);
    assertThat(fair(s, "root.parentA").memory()).isEqualTo(13108);
    assertThat(fair(s, "root.parentA.childA1").memory()).isEqualTo(6554);
    assertThat(fair(s, "root.parentA.childA2").memory()).isEqualTo(6554);
    assertThat(steady(s, "root.parentB.childB1").vCores()).isEqualTo(1);
    assertThat(steady(s, "root.parentB.childB2").vCores()).isEqualTo(1);
  }

  private static QueueSpec drfLeaf(String path) {
    return hadoopQueue(path).policy(FairPolicyKind.DRF).build();
  }
}
