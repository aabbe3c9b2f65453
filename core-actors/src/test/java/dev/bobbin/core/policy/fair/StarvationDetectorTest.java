package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.core.policy.AppSnapshot;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.app;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.leaf;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.mb;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.root;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.withPolicy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.fair.Starvation.Kind;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StarvationDetectorTest {
  private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);

  // The deep-dive's example queue: fairSharePreemptionTimeout 5 s, fairSharePreemptionThreshold 0.8.
  private final QueueSpec root = root(
      leaf("root.tenant1", FIVE_SECONDS, 0.8),
      leaf("root.tenant2", FIVE_SECONDS, 0.8),
      leaf("root.tenant3", FIVE_SECONDS, 0.8));

  // 24 GB / 12 vcores split 1:2:1 once tenant3 is active: 6 GB/3, 12 GB/6, 6 GB/3.
  private final FairShares shares = new FairShares(Map.of(), Map.of(
      "app1", res(6, 3), "app2", res(12, 6), "app3", res(6, 3)));

  private AppSnapshot tenant3(Resource usage) {
    return app("app3", "root.tenant3", usage, res(6, 3).minus(usage), res(2, 1));
  }

  @Test
  void anApplicationBelowTheThresholdStarvesOnlyOnceTheTimeoutHasPassed() {
    // app3 holds nothing and wants 6 GB; its target is min(0.8 x 6 GB, demand 6 GB) = 4915 MB / 2 vcores
    // (0.8 x 6144 = 4915.2 and 0.8 x 3 = 2.4, truncated as Hadoop does).
    List<AppSnapshot> apps = List.of(tenant3(Resource.NONE));

    Starvation t1 = StarvationDetector.detect(root, shares, apps, StarvationClocks.EMPTY, 1_000);
    assertThat(t1.apps()).isEmpty();
    assertThat(t1.clocks().appBelowSince("app3")).hasValue(1_000);

    // 4.999 s below: not yet.
    Starvation t2 = StarvationDetector.detect(root, shares, apps, t1.clocks(), 5_999);
    assertThat(t2.apps()).isEmpty();
    assertThat(t2.clocks().appBelowSince("app3")).hasValue(1_000);

    // 5 s below: starved for the whole gap to the threshold, which the deep-dive says is as far as
    // preemption lifts it.
    Starvation t3 = StarvationDetector.detect(root, shares, apps, t2.clocks(), 6_000);
    assertThat(t3.apps()).containsExactly(new StarvedApp("app3", "root.tenant3", mb(4915, 2), Kind.FAIR_SHARE,
        res(6, 3), Resource.NONE, 0.8, FIVE_SECONDS, 1_000));
    assertThat(t3.apps().get(0).reason()).contains("app3", "0.80", "since 1000", "PT5S");
  }

  @Test
  void theClockRestartsWhenUsageRecoversAboveTheThreshold() {
    Starvation t1 = StarvationDetector.detect(root, shares, List.of(tenant3(res(1, 1))), StarvationClocks.EMPTY, 1_000);
    assertThat(t1.clocks().appBelowSince("app3")).hasValue(1_000);

    // At 3 s app3 holds 5 GB, above 4915 MB: the clock entry is dropped.
    Starvation t2 = StarvationDetector.detect(root, shares, List.of(tenant3(res(5, 2))), t1.clocks(), 3_000);
    assertThat(t2.clocks().appsBelowSince()).isEmpty();

    // It loses containers again at 4 s: the 5 s start over from there, so 8.999 s is not enough...
    Starvation t3 = StarvationDetector.detect(root, shares, List.of(tenant3(res(1, 1))), t2.clocks(), 4_000);
    assertThat(t3.clocks().appBelowSince("app3")).hasValue(4_000);
    assertThat(StarvationDetector.detect(root, shares, List.of(tenant3(res(1, 1))), t3.clocks(), 8_999).apps())
        .isEmpty();
    // ...and 9 s is: starved for 4915 - 1024 = 3891 MB and 2 - 1 = 1 vcore.
    assertThat(StarvationDetector.detect(root, shares, List.of(tenant3(res(1, 1))), t3.clocks(), 9_000).apps())
        .extracting(StarvedApp::starvedFor, StarvedApp::belowSince)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(mb(3891, 1), 4_000L));
  }

  @Test
  void usageExactlyAtTheThresholdIsNotStarved() {
    AppSnapshot atThreshold = app("app3", "root.tenant3", mb(4915, 2), mb(6144 - 4915, 1), mb(1229, 1));
    Starvation s = StarvationDetector.detect(root, shares, List.of(atThreshold), StarvationClocks.EMPTY, 0);
    assertThat(s.clocks().appsBelowSince()).isEmpty();
  }

  @Test
  void aNullTimeoutIsTrackedButNeverStarves() {
    QueueSpec never = root(leaf("root.tenant3", null, 0.8));
    List<AppSnapshot> apps = List.of(tenant3(Resource.NONE));
    Starvation first = StarvationDetector.detect(never, shares, apps, StarvationClocks.EMPTY, 0);
    Starvation muchLater = StarvationDetector.detect(never, shares, apps, first.clocks(), 365L * 24 * 3600 * 1000);
    assertThat(muchLater.apps()).isEmpty();
    assertThat(muchLater.clocks().appBelowSince("app3")).hasValue(0);
  }

  @Test
  void withoutPendingDemandThereIsNoStarvation() {
    AppSnapshot idle = app("app3", "root.tenant3", Resource.NONE, Resource.NONE, Resource.NONE);
    Starvation s = StarvationDetector.detect(root, shares, List.of(idle), StarvationClocks.EMPTY, 0);
    assertThat(s.apps()).isEmpty();
    assertThat(s.clocks().appsBelowSince()).isEmpty();
  }

  @Test
  void theStarvedAmountIsCappedByDemand() {
    // Threshold 1.0 and fair share 6 GB, but app3 only ever wants 1 + 2 = 3 GB: target 3 GB, starved for 2 GB.
    QueueSpec full = root(leaf("root.tenant3", Duration.ZERO, 1.0));
    AppSnapshot small = app("app3", "root.tenant3", res(1, 1), res(2, 1), res(1, 1));
    Starvation s = StarvationDetector.detect(full, shares, List.of(small), StarvationClocks.EMPTY, 0);
    assertThat(s.apps()).extracting(StarvedApp::starvedFor).containsExactly(res(2, 1));
  }

  @Test
  void clocksOfApplicationsThatLeftAreDropped() {
    StarvationClocks old = new StarvationClocks(Map.of("gone", 5L), Map.of("root.gone", 7L));
    Starvation s = StarvationDetector.detect(root, shares, List.of(), old, 10);
    assertThat(s.clocks()).isEqualTo(StarvationClocks.EMPTY);
  }

  @Test
  void drfQueuesCompareDominantShares() {
    // Cluster 24 GB / 12 vcores. app3's fair share 6 GB / 3 vcores is a dominant share of 0.25.
    // Holding 2 GB / 4 vcores is a dominant share of 4/12 = 0.33: not below, though memory is.
    QueueSpec drf = root(withPolicy(leaf("root.tenant3", Duration.ZERO, 1.0), FairPolicyKind.DRF));
    FairShares withCluster = new FairShares(
        Map.of("root", new FairShares.QueueShare("root", res(24, 12), res(24, 12), res(24, 12), res(24, 12), true)),
        shares.apps());
    AppSnapshot cpuHeavy = app("app3", "root.tenant3", res(2, 4), res(4, 1), res(2, 1));
    assertThat(StarvationDetector.detect(drf, withCluster, List.of(cpuHeavy), StarvationClocks.EMPTY, 0).apps())
        .isEmpty();
    // The same usage under FAIR (memory only) is 2 GB < 6 GB: starved for 4 GB and no vcores.
    QueueSpec fair = root(leaf("root.tenant3", Duration.ZERO, 1.0));
    assertThat(StarvationDetector.detect(fair, withCluster, List.of(cpuHeavy), StarvationClocks.EMPTY, 0).apps())
        .extracting(StarvedApp::starvedFor).containsExactly(res(4, 0));
  }

  @Test
  void minShareShortfallGoesToTheApplicationsWithTheMostPendingDemandFirst() {
    // The deep-dive's example: the queue is 6 GB short of its min share; its applications want 3, 2, 1
    // and 0.5 GB. App1 gets 3 GB, App2 2 GB, App3 1 GB, and App4 nothing, the shortfall being used up.
    QueueSpec q = leaf("root.batch", true, null, 0.5, res(6, 3), Duration.ofSeconds(10));
    QueueSpec tree = root(q);
    List<AppSnapshot> apps = List.of(
        app("App4", "root.batch", Resource.NONE, mb(512, 1), mb(512, 1)),
        app("App2", "root.batch", Resource.NONE, res(2, 1), res(2, 1)),
        app("App1", "root.batch", Resource.NONE, res(3, 1), res(3, 1)),
        app("App3", "root.batch", Resource.NONE, res(1, 1), res(1, 1)));
    FairShares none = new FairShares(Map.of(), Map.of());

    Starvation early = StarvationDetector.detect(tree, none, apps, StarvationClocks.EMPTY, 0);
    assertThat(early.apps()).isEmpty();
    assertThat(early.clocks().queueBelowSince("root.batch")).hasValue(0);

    Starvation s = StarvationDetector.detect(tree, none, apps, early.clocks(), 10_000);
    // Queue: min(min share 6 GB/3, demand 6.5 GB/4) - usage 0 = 6 GB / 3 vcores short.
    assertThat(s.queues()).singleElement().satisfies(sq -> {
      assertThat(sq.shortfall()).isEqualTo(res(6, 3));
      assertThat(sq.belowSince()).isZero();
    });
    assertThat(s.apps()).allSatisfy(a -> assertThat(a.kind()).isEqualTo(Kind.MIN_SHARE));
    assertThat(s.apps()).extracting(StarvedApp::appId, StarvedApp::starvedFor).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("App1", res(3, 1)),
        org.assertj.core.groups.Tuple.tuple("App2", res(2, 1)),
        org.assertj.core.groups.Tuple.tuple("App3", res(1, 1)));
  }

  @Test
  void minShareIsHandedOutOnlyForWhatFairShareStarvationDoesNotCover() {
    // Queue min share 6 GB, usage 0. A is also starved for fair share: threshold 0.5 of 4 GB = 2 GB.
    // Left for min share: 6 - 2 = 4 GB. A (pending 4 GB, 2 of it covered) gets 2 GB, B (pending 3 GB) 2 GB.
    QueueSpec q = leaf("root.q", true, Duration.ZERO, 0.5, res(6, 0), Duration.ZERO);
    FairShares s = new FairShares(Map.of(), Map.of("A", res(4, 0), "B", Resource.NONE));
    List<AppSnapshot> apps = List.of(
        app("A", "root.q", Resource.NONE, res(4, 0), res(1, 0)),
        app("B", "root.q", Resource.NONE, res(3, 0), res(1, 0)));
    Starvation starvation = StarvationDetector.detect(root(q), s, apps, StarvationClocks.EMPTY, 0);
    assertThat(starvation.apps()).extracting(StarvedApp::appId, StarvedApp::kind, StarvedApp::starvedFor)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("A", Kind.FAIR_SHARE, res(2, 0)),
            org.assertj.core.groups.Tuple.tuple("A", Kind.MIN_SHARE, res(2, 0)),
            org.assertj.core.groups.Tuple.tuple("B", Kind.MIN_SHARE, res(2, 0)));
  }

  @Test
  void aNullMinShareTimeoutNeverStarvesTheQueue() {
    QueueSpec q = leaf("root.q", true, null, 0.5, res(6, 3), null);
    List<AppSnapshot> apps = List.of(app("A", "root.q", Resource.NONE, res(4, 1), res(1, 1)));
    Starvation s = StarvationDetector.detect(root(q), new FairShares(Map.of(), Map.of()), apps,
        new StarvationClocks(Map.of(), Map.of("root.q", 0L)), Long.MAX_VALUE / 2);
    assertThat(s.apps()).isEmpty();
    assertThat(s.queues()).isEmpty();
  }

  @Test
  void theLeastStarvedIsServedFirstAndTheInputsAreLeftAlone() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0));
    FairShares s = new FairShares(Map.of(), Map.of("big", res(8, 4), "small", res(2, 1)));
    List<AppSnapshot> apps = new ArrayList<>(List.of(
        app("big", "root.a", Resource.NONE, res(8, 4), res(2, 1)),
        app("small", "root.a", Resource.NONE, res(2, 1), res(1, 1))));
    List<AppSnapshot> before = List.copyOf(apps);
    Starvation starvation = StarvationDetector.detect(tree, s, apps, StarvationClocks.EMPTY, 0);
    assertThat(starvation.apps()).extracting(StarvedApp::appId).containsExactly("small", "big");
    assertThat(apps).isEqualTo(before);
    assertThat(StarvationDetector.detect(tree, s, apps, StarvationClocks.EMPTY, 0)).isEqualTo(starvation);
  }
}
