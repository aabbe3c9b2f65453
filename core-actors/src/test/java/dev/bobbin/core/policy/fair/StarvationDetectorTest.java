package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.app;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.leaf;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.mb;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.root;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.withPolicy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.StarvationClocks;
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
  private static final Resource CLUSTER = res(24, 12);

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

  private static Starvation detect(QueueSpec tree, FairShares s, List<AppSnapshot> apps, StarvationState state,
      long now) {
    return StarvationDetector.detect(tree, s, CLUSTER, apps, state, now);
  }

  @Test
  void anApplicationBelowTheThresholdStarvesOnlyOnceTheTimeoutHasPassed() {
    // app3 holds nothing and wants 6 GB; its target is min(0.8 x 6 GB, demand 6 GB) = 4915 MB / 2 vcores
    // (0.8 x 6144 = 4915.2 and 0.8 x 3 = 2.4, truncated as Hadoop does). Its clock starts when this
    // scheduler does (it was submitted before).
    List<AppSnapshot> apps = List.of(tenant3(Resource.NONE));

    Starvation t1 = detect(root, shares, apps, StarvationState.startingAt(1_000), 1_000);
    assertThat(t1.apps()).isEmpty();
    assertThat(t1.state().app("app3").lastAtFairShare()).isEqualTo(1_000);

    // 4.999 s later: not yet. The clock left behind is worth journalling now.
    Starvation t2 = detect(root, shares, apps, t1.state(), 5_999);
    assertThat(t2.apps()).isEmpty();
    assertThat(t2.state().clocks(5_999).appBelowSince("app3")).hasValue(1_000);

    // 5 s: starved for the whole gap to the threshold, which the deep-dive says is as far as preemption
    // lifts it.
    Starvation t3 = detect(root, shares, apps, t2.state(), 6_000);
    assertThat(t3.apps()).containsExactly(new StarvedApp("app3", "root.tenant3", mb(4915, 2), Resource.NONE,
        res(6, 3), Resource.NONE, res(6, 3), 0.8, FIVE_SECONDS, 1_000));
    assertThat(t3.apps().get(0).kind()).isEqualTo(Kind.FAIR_SHARE);
    assertThat(t3.apps().get(0).reason()).contains("app3", "0.80", "at 1000", "PT5S");
  }

  @Test
  void theTimeoutCountsFromTheLastCheckThatFoundItAtItsThreshold() {
    Starvation t1 = detect(root, shares, List.of(tenant3(res(1, 1))), StarvationState.startingAt(1_000), 1_000);

    // At 3 s app3 holds 5 GB, above 4915 MB: its clock moves to 3 s and nothing is left to journal.
    Starvation t2 = detect(root, shares, List.of(tenant3(res(5, 2))), t1.state(), 3_000);
    assertThat(t2.state().app("app3").lastAtFairShare()).isEqualTo(3_000);
    assertThat(t2.state().clocks(3_000).appsBelowSince()).isEmpty();

    // It loses containers by the check at 4 s. As in Hadoop the 5 s count from 3 s, the last time it was
    // seen at its threshold: 7.999 s is not enough...
    Starvation t3 = detect(root, shares, List.of(tenant3(res(1, 1))), t2.state(), 4_000);
    assertThat(t3.state().clocks(4_000).appBelowSince("app3")).hasValue(3_000);
    assertThat(detect(root, shares, List.of(tenant3(res(1, 1))), t3.state(), 7_999).apps()).isEmpty();
    // ...and 8 s is: starved for 4915 - 1024 = 3891 MB and 2 - 1 = 1 vcore.
    assertThat(detect(root, shares, List.of(tenant3(res(1, 1))), t3.state(), 8_000).apps())
        .extracting(StarvedApp::starvedFor, StarvedApp::lastAtFairShare)
        .containsExactly(tuple(mb(3891, 1), 3_000L));
  }

  @Test
  void anApplicationSubmittedLaterStartsItsClockAtItsSubmission() {
    AppSnapshot late = new AppSnapshot("app3", "app3_01", "root.tenant3", 0, 2_000, Resource.NONE, Resource.NONE,
        res(6, 3), res(2, 1));
    Starvation s = detect(root, shares, List.of(late), StarvationState.startingAt(0), 6_999);
    assertThat(s.apps()).isEmpty();
    assertThat(detect(root, shares, List.of(late), s.state(), 7_000).apps()).hasSize(1);
  }

  @Test
  void usageExactlyAtTheThresholdIsNotStarved() {
    AppSnapshot atThreshold = app("app3", "root.tenant3", mb(4915, 2), mb(6144 - 4915, 1), mb(1229, 1));
    Starvation s = detect(root, shares, List.of(atThreshold), StarvationState.startingAt(0), 60_000);
    assertThat(s.apps()).isEmpty();
    assertThat(s.state().app("app3").lastAtFairShare()).isEqualTo(60_000);
  }

  @Test
  void theThresholdIsAFloatAsInHadoop() {
    // 0.7f is 0.69999998...: 10 GB x 0.7 truncates to 7167 MB and 10 vcores to 6, not 7.
    assertThat(StarvationMath.scale(res(10, 10), 0.7)).isEqualTo(mb(7167, 6));
    assertThat(StarvationMath.scale(res(6, 3), 0.8)).isEqualTo(mb(4915, 2));
  }

  @Test
  void aNullTimeoutIsTrackedButNeverStarves() {
    QueueSpec never = root(leaf("root.tenant3", null, 0.8));
    List<AppSnapshot> apps = List.of(tenant3(Resource.NONE));
    Starvation first = detect(never, shares, apps, StarvationState.startingAt(0), 0);
    long muchLater = 365L * 24 * 3600 * 1000;
    Starvation later = detect(never, shares, apps, first.state(), muchLater);
    assertThat(later.apps()).isEmpty();
    assertThat(later.state().clocks(muchLater).appBelowSince("app3")).hasValue(0);
  }

  @Test
  void withoutPendingDemandAnApplicationIsNotChecked() {
    AppSnapshot idle = app("app3", "root.tenant3", Resource.NONE, Resource.NONE, Resource.NONE);
    Starvation s = detect(root, shares, List.of(idle), StarvationState.startingAt(0), 60_000);
    assertThat(s.apps()).isEmpty();
    // Not looked at, so its clock stays where it started.
    assertThat(s.state().app("app3").lastAtFairShare()).isZero();
  }

  @Test
  void theStarvedAmountIsCappedByDemand() {
    // Threshold 1.0 and fair share 6 GB, but app3 only ever wants 1 + 2 = 3 GB: target 3 GB, starved for 2 GB.
    QueueSpec full = root(leaf("root.tenant3", Duration.ZERO, 1.0));
    AppSnapshot small = app("app3", "root.tenant3", res(1, 1), res(2, 1), res(1, 1));
    Starvation s = detect(full, shares, List.of(small), StarvationState.startingAt(0), 0);
    assertThat(s.apps()).extracting(StarvedApp::starvedFor).containsExactly(res(2, 1));
  }

  @Test
  void applicationsAndQueuesThatLeftAreForgotten() {
    StarvationClocks old = new StarvationClocks(Map.of("gone", 5L), Map.of("root.gone", 7L), Map.of("gone", 90L));
    Starvation s = detect(root, shares, List.of(), StarvationState.restored(old, 10), 10);
    assertThat(s.state().apps()).isEmpty();
    assertThat(s.state().queuesLastAtMinShare()).doesNotContainKey("root.gone");
    assertThat(s.state().clocks(10)).isEqualTo(StarvationClocks.EMPTY);
  }

  @Test
  void drfQueuesCompareDominantShares() {
    // Cluster 24 GB / 12 vcores. app3's fair share 6 GB / 3 vcores is a dominant share of 0.25.
    // Holding 2 GB / 4 vcores is a dominant share of 4/12 = 0.33: not below, though memory is.
    QueueSpec drf = root(withPolicy(leaf("root.tenant3", Duration.ZERO, 1.0), FairPolicyKind.DRF));
    AppSnapshot cpuHeavy = app("app3", "root.tenant3", res(2, 4), res(4, 1), res(2, 1));
    assertThat(detect(drf, shares, List.of(cpuHeavy), StarvationState.startingAt(0), 0).apps()).isEmpty();
    // The same usage under FAIR (memory only) is 2 GB < 6 GB: starved for 4 GB and no vcores.
    QueueSpec fair = root(leaf("root.tenant3", Duration.ZERO, 1.0));
    assertThat(detect(fair, shares, List.of(cpuHeavy), StarvationState.startingAt(0), 0).apps())
        .extracting(StarvedApp::starvedFor).containsExactly(res(4, 0));
  }

  @Test
  void theFairShareWalkStopsAtTheFirstApplicationThatIsNotStarved() {
    // In root.q's order (least usage first) x holds nothing, y 1 GB and z 2 GB. x is starved; y is at its
    // 1 GB share, so the walk stops there: z, far below its 8 GB share for a minute, is not looked at.
    QueueSpec tree = root(leaf("root.q", Duration.ZERO, 1.0));
    FairShares s = new FairShares(Map.of(), Map.of("x", res(4, 0), "y", res(1, 0), "z", res(8, 0)));
    List<AppSnapshot> apps = List.of(
        app("x", "root.q", Resource.NONE, res(4, 1), res(1, 1)),
        app("y", "root.q", res(1, 1), res(1, 1), res(1, 1)),
        app("z", "root.q", res(2, 2), res(6, 1), res(1, 1)));
    Starvation starvation = detect(tree, s, apps, StarvationState.startingAt(0), 60_000);
    assertThat(starvation.apps()).extracting(StarvedApp::appId).containsExactly("x");
    assertThat(starvation.state().app("y").lastAtFairShare()).isEqualTo(60_000);
    assertThat(starvation.state().app("z").lastAtFairShare()).isZero();
  }

  @Test
  void anApplicationWithinItsRecheckDelayIsNotChecked() {
    QueueSpec tree = root(leaf("root.q", Duration.ZERO, 1.0));
    FairShares s = new FairShares(Map.of(), Map.of("x", res(4, 0)));
    List<AppSnapshot> apps = List.of(app("x", "root.q", Resource.NONE, res(4, 1), res(1, 1)));
    Starvation first = detect(tree, s, apps, StarvationState.startingAt(0), 0);
    StarvationState served = first.state().servedUntil(List.of("x"), 25_000);
    assertThat(served.clocks(0).appRecheckAfter("x")).hasValue(25_000);

    assertThat(detect(tree, s, apps, served, 24_999).apps()).isEmpty();
    assertThat(detect(tree, s, apps, served, 25_000).apps()).extracting(StarvedApp::appId).containsExactly("x");
    assertThat(served.clocks(25_000).appsRecheckAfter()).isEmpty();
  }

  @Test
  void minShareIsAttributedInTheQueueOrder() {
    // The deep-dive's example: the queue is 6 GB short of its min share; its applications want 3, 2, 1
    // and 0.5 GB. Hadoop walks them in the queue's order (here all equal, so by submission and then id):
    // App1 is attributed 3 GB, App2 2 GB, App3 1 GB, and App4 nothing, the shortfall being used up;
    // App4 is not starved at all.
    QueueSpec q = leaf("root.batch", true, null, 0.5, res(6, 3), Duration.ofSeconds(10));
    QueueSpec tree = root(q);
    List<AppSnapshot> apps = List.of(
        app("App4", "root.batch", Resource.NONE, mb(512, 1), mb(512, 1)),
        app("App2", "root.batch", Resource.NONE, res(2, 1), res(2, 1)),
        app("App1", "root.batch", Resource.NONE, res(3, 1), res(3, 1)),
        app("App3", "root.batch", Resource.NONE, res(1, 1), res(1, 1)));
    FairShares none = new FairShares(Map.of(), Map.of());

    Starvation first = detect(tree, none, apps, StarvationState.startingAt(0), 0);
    Starvation early = detect(tree, none, apps, first.state(), 9_999);
    assertThat(early.apps()).isEmpty();
    assertThat(early.state().clocks(9_999).queueBelowSince("root.batch")).hasValue(0);

    Starvation s = detect(tree, none, apps, early.state(), 10_000);
    // Queue: min(min share 6 GB/3, demand 6.5 GB/4) - usage 0 = 6 GB / 3 vcores short.
    assertThat(s.queues()).singleElement().satisfies(sq -> {
      assertThat(sq.shortfall()).isEqualTo(res(6, 3));
      assertThat(sq.lastAtMinShare()).isZero();
    });
    assertThat(s.apps()).allSatisfy(a -> assertThat(a.kind()).isEqualTo(Kind.MIN_SHARE));
    assertThat(s.apps()).extracting(StarvedApp::appId, StarvedApp::minShareStarvation).containsExactlyInAnyOrder(
        tuple("App1", res(3, 1)), tuple("App2", res(2, 1)), tuple("App3", res(1, 1)));
  }

  @Test
  void anApplicationWantingMoreThanIsLeftIsAttributedTheExcessAsHadoopComputesIt() {
    // 6 GB short. A (first) wants 4 GB: attributed 4, 2 GB left. B wants 5 GB, more than the 2 left:
    // Hadoop attributes 5 - 2 = 3 GB (it subtracts what is left instead of capping at it).
    QueueSpec q = leaf("root.q", true, null, 0.5, res(6, 0), Duration.ZERO);
    List<AppSnapshot> apps = List.of(
        new AppSnapshot("A", "A_01", "root.q", 0, 1, Resource.NONE, Resource.NONE, res(4, 0), res(1, 0)),
        new AppSnapshot("B", "B_01", "root.q", 0, 2, Resource.NONE, Resource.NONE, res(5, 0), res(1, 0)));
    Starvation s = detect(root(q), new FairShares(Map.of(), Map.of()), apps, StarvationState.startingAt(0), 0);
    assertThat(s.apps()).extracting(StarvedApp::appId, StarvedApp::minShareStarvation)
        .containsExactlyInAnyOrder(tuple("A", res(4, 0)), tuple("B", res(3, 0)));
  }

  @Test
  void minShareIsAttributedOnlyForWhatFairShareStarvationDoesNotCover() {
    // Queue min share 6 GB, usage 0. A is also starved for fair share: threshold 0.5 of 4 GB = 2 GB; B,
    // with no fair share, is not, which ends the fair-share walk. Left for min share: 6 - 2 = 4 GB.
    // A (pending 4 GB, 2 of it covered) is attributed 2 GB, leaving 2; B (pending 3 GB) more than that,
    // so 3 - 2 = 1 GB as Hadoop computes it.
    QueueSpec q = leaf("root.q", true, Duration.ZERO, 0.5, res(6, 0), Duration.ZERO);
    FairShares s = new FairShares(Map.of(), Map.of("A", res(4, 0), "B", Resource.NONE));
    List<AppSnapshot> apps = List.of(
        app("A", "root.q", Resource.NONE, res(4, 0), res(1, 0)),
        app("B", "root.q", Resource.NONE, res(3, 0), res(1, 0)));
    Starvation starvation = detect(root(q), s, apps, StarvationState.startingAt(0), 0);
    assertThat(starvation.apps())
        .extracting(StarvedApp::appId, StarvedApp::kind, StarvedApp::fairShareStarvation,
            StarvedApp::minShareStarvation)
        .containsExactlyInAnyOrder(
            tuple("A", Kind.FAIR_AND_MIN_SHARE, res(2, 0), res(2, 0)),
            tuple("B", Kind.MIN_SHARE, Resource.NONE, res(1, 0)));
  }

  @Test
  void aNullMinShareTimeoutNeverStarvesTheQueue() {
    QueueSpec q = leaf("root.q", true, null, 0.5, res(6, 3), null);
    List<AppSnapshot> apps = List.of(app("A", "root.q", Resource.NONE, res(4, 1), res(1, 1)));
    Starvation s = detect(root(q), new FairShares(Map.of(), Map.of()), apps, StarvationState.startingAt(0),
        Long.MAX_VALUE / 2);
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
    Starvation starvation = detect(tree, s, apps, StarvationState.startingAt(0), 0);
    assertThat(starvation.apps()).extracting(StarvedApp::appId).containsExactly("small", "big");
    assertThat(apps).isEqualTo(before);
    assertThat(detect(tree, s, apps, StarvationState.startingAt(0), 0)).isEqualTo(starvation);
  }

  @Test
  void theServiceOrderIsThatOfHadoopsStarvedApplicationHeap() {
    // Four applications starved for 4, 1, 3 and 2 GB join in that order. Hadoop's comparator puts an
    // application first when its starvation fits in the other's, which is a proper order on these
    // amounts, so the heap serves the least starved first: 1, 2, 3, 4 GB.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", Duration.ZERO, 1.0),
        leaf("root.c", Duration.ZERO, 1.0), leaf("root.d", Duration.ZERO, 1.0));
    FairShares s = new FairShares(Map.of(), Map.of("a", res(4, 0), "b", res(1, 0), "c", res(3, 0), "d", res(2, 0)));
    List<AppSnapshot> apps = List.of(
        app("a", "root.a", Resource.NONE, res(4, 1), res(1, 1)),
        app("b", "root.b", Resource.NONE, res(1, 1), res(1, 1)),
        app("c", "root.c", Resource.NONE, res(3, 1), res(1, 1)),
        app("d", "root.d", Resource.NONE, res(2, 1), res(1, 1)));
    assertThat(detect(tree, s, apps, StarvationState.startingAt(0), 0).apps()).extracting(StarvedApp::appId)
        .containsExactly("b", "d", "c", "a");
  }

  @Test
  void whatIsJournalledRestoresTheClocksThatMatter() {
    QueueSpec tree = root(leaf("root.q", Duration.ofSeconds(10), 1.0));
    FairShares s = new FairShares(Map.of(), Map.of("x", res(4, 0)));
    List<AppSnapshot> apps = List.of(app("x", "root.q", Resource.NONE, res(4, 1), res(1, 1)));
    Starvation first = detect(tree, s, apps, StarvationState.startingAt(0), 0);
    Starvation later = detect(tree, s, apps, first.state(), 6_000);
    StarvationClocks journalled = later.state().servedUntil(List.of("x"), 31_000).clocks(6_000);
    assertThat(journalled.appBelowSince("x")).hasValue(0);
    assertThat(journalled.appRecheckAfter("x")).hasValue(31_000);

    // Another scheduler going on from there at 7 s: x is still 7 s into its 10 s, and left alone until 31 s.
    StarvationState restored = StarvationState.restored(journalled, 7_000);
    assertThat(detect(tree, s, apps, restored, 30_999).apps()).isEmpty();
    assertThat(detect(tree, s, apps, restored, 31_000).apps()).singleElement()
        .satisfies(a -> assertThat(a.lastAtFairShare()).isZero());
  }
}
