package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.app;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.container;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.enabled;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.leaf;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.mb;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.node;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.parent;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.root;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.PreemptionPlan.Reservation;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class PreemptionPlannerTest {
  private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);
  private static final Resource GB2 = res(2, 1);
  /** For tests where the cluster is not full: utilization only has to be above zero. */
  private static final PreemptionSettings ANY_LOAD = new PreemptionSettings(true, 0.0, Duration.ofSeconds(15));

  /** A fair-share starved application made by hand, for tests about the planner alone. */
  static Starvation starving(String appId, String queue, Resource amount) {
    return new Starvation(List.of(new StarvedApp(appId, queue, amount, Resource.NONE, amount, Resource.NONE, amount,
        1.0, Duration.ZERO, 0)), List.of(), StarvationState.startingAt(0));
  }

  /** Each application's pending demand as one request for {@code *} of its largest ask. */
  static Map<String, List<Ask>> asksOf(List<AppSnapshot> apps) {
    Map<String, List<Ask>> out = new java.util.HashMap<>();
    for (AppSnapshot a : apps) {
      Resource size = a.largestPendingAsk();
      if (size.memory() > 0) out.put(a.appId(), List.of(Ask.anyOf(size, (int) (a.pending().memory() / size.memory()))));
    }
    return out;
  }

  static PreemptionPlan plan(PreemptionSettings settings, QueueSpec tree, FairShares shares, List<AppSnapshot> apps,
      List<NodeView> nodes, List<ContainerSnapshot> containers, Starvation starvation, Set<String> marked,
      List<Reservation> outstanding) {
    Resource cluster = Resource.NONE;
    for (NodeView n : nodes) cluster = cluster.plus(n.capacity());
    return PreemptionPlanner.plan(settings, tree, shares, cluster, apps, asksOf(apps), nodes, containers, starvation,
        marked, outstanding);
  }

  static PreemptionPlan plan(PreemptionSettings settings, QueueSpec tree, FairShares shares, List<AppSnapshot> apps,
      List<NodeView> nodes, List<ContainerSnapshot> containers, Starvation starvation, Set<String> marked) {
    return plan(settings, tree, shares, apps, nodes, containers, starvation, marked, List.of());
  }

  private static NodeView full(String id) {
    return node(id, res(8, 4), res(8, 4));
  }

  /**
   * The deep-dive's cluster: 12 vcores and 24 GB on three 8 GB / 4 vcore nodes; tenant1, tenant2 and
   * tenant3 weigh 1, 2 and 1.
   */
  @Nested
  class TheDeepDiveScenario {
    private final QueueSpec tree = root(
        leaf("root.tenant1", FIVE_SECONDS, 1.0),
        leaf("root.tenant2", FIVE_SECONDS, 1.0),
        leaf("root.tenant3", FIVE_SECONDS, 1.0));

    // With only tenant1 and tenant2 active their instantaneous shares were 1/3 and 2/3 (8 GB and 16 GB),
    // and they filled the cluster with 2 GB / 1 vcore containers:
    //   n1: app1's AM and three tasks            (app1: 8 GB / 4)
    //   n2: app2's AM and three tasks, n3: four more app2 tasks   (app2: 16 GB / 8)
    private final List<ContainerSnapshot> containers = List.of(
        container("app1-am", "app1", "n1", GB2, true, 10),
        container("app1-c1", "app1", "n1", GB2, false, 11),
        container("app1-c2", "app1", "n1", GB2, false, 12),
        container("app1-c3", "app1", "n1", GB2, false, 13),
        container("app2-am", "app2", "n2", GB2, true, 20),
        container("app2-c1", "app2", "n2", GB2, false, 21),
        container("app2-c2", "app2", "n2", GB2, false, 22),
        container("app2-c3", "app2", "n2", GB2, false, 23),
        container("app2-c4", "app2", "n3", GB2, false, 24),
        container("app2-c5", "app2", "n3", GB2, false, 25),
        container("app2-c6", "app2", "n3", GB2, false, 26),
        container("app2-c7", "app2", "n3", GB2, false, 27));
    private final List<NodeView> nodes = List.of(full("n1"), full("n2"), full("n3"));

    // tenant3 becomes active with one application wanting three 2 GB containers. Instantaneous shares
    // become 25 % / 50 % / 25 %: 6 GB/3, 12 GB/6, 6 GB/3.
    private final List<AppSnapshot> apps = List.of(
        app("app1", "root.tenant1", res(8, 4), Resource.NONE, Resource.NONE),
        app("app2", "root.tenant2", res(16, 8), Resource.NONE, Resource.NONE),
        app("app3", "root.tenant3", Resource.NONE, res(6, 3), GB2));
    private final FairShares shares = new FairShares(Map.of(), Map.of(
        "app1", res(6, 3), "app2", res(12, 6), "app3", res(6, 3)));

    private Starvation starvationAt(long now) {
      Starvation first = StarvationDetector.detect(tree, shares, res(24, 12), apps, StarvationState.startingAt(0), 0);
      return StarvationDetector.detect(tree, shares, res(24, 12), apps, first.state(), now);
    }

    @Test
    void tenant3StarvesAfterTheTimeoutAndTakesOnlyWhatOthersHoldAboveTheirFairShare() {
      assertThat(starvationAt(4_999).apps()).isEmpty();
      Starvation starvation = starvationAt(5_000);
      // Threshold 1.0: starved for the whole 6 GB / 3, i.e. three 2 GB containers.
      assertThat(starvation.apps()).extracting(StarvedApp::appId, StarvedApp::starvedFor)
          .containsExactly(tuple("app3", res(6, 3)));

      PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, containers, starvation, Set.of());

      // The cluster is 100 % used, above 0.8, so preemption runs.
      assertThat(plan.attempted()).isTrue();
      assertThat(plan.clusterUtilization()).isEqualTo(1.0);
      // Nodes are walked in order, each offering its newest tasks first; the first node whose set costs no
      // AM wins. 1st container: n1 gives app1-c3 (app1 8 -> 6 GB, exactly its fair share). 2nd: app1 can
      // give nothing more, n2 gives app2-c3 (16 -> 14 GB). 3rd: n2 again, app2-c2 (14 -> 12 GB).
      assertThat(plan.decisions()).extracting(PreemptionDecision::nodeId, PreemptionDecision::containerIds)
          .containsExactly(
              tuple("n1", List.of("app1-c3")),
              tuple("n2", List.of("app2-c3")),
              tuple("n2", List.of("app2-c2")));
      assertThat(plan.decisions()).allSatisfy(d -> {
        assertThat(d.starvedAppId()).isEqualTo("app3");
        assertThat(d.freed()).isEqualTo(GB2);
        assertThat(d.details().starved().kind()).isEqualTo(Starvation.Kind.FAIR_SHARE);
        assertThat(d.details().ask()).isEqualTo(GB2);
        d.details().victims().forEach(v -> assertThat(v.usageAfter().memory()).isGreaterThanOrEqualTo(v.fairShare().memory()));
      });
      assertThat(plan.decisions().get(2).details().victims()).singleElement().satisfies(v -> {
        assertThat(v.appId()).isEqualTo("app2");
        assertThat(v.usageBefore()).isEqualTo(res(14, 7));
        assertThat(v.usageAfter()).isEqualTo(res(12, 6));
        assertThat(v.fairShare()).isEqualTo(res(12, 6));
      });
      assertThat(plan.decisions().get(0).reason())
          .contains("app1-c3", "n1", "app3", "app1 <memory:8192, vCores:4> -> <memory:6144, vCores:3>");
      // What each node frees is held there for app3.
      assertThat(plan.reservations()).containsExactly(
          new Reservation("n1", "app3", res(2, 1)), new Reservation("n2", "app3", res(4, 2)));
    }

    @Test
    void markedContainersAreNeitherTakenAgainNorCountedAsTheirApplications() {
      Starvation starvation = starvationAt(5_000);
      PreemptionPlan first = plan(enabled(), tree, shares, apps, nodes, containers, starvation, Set.of());
      Set<String> marked = new HashSet<>(first.containerIds());

      // Were app3 served again while the marked containers still run, app1 and app2 would count as at
      // their fair shares already: nothing else may be taken, with or without the space held for app3.
      for (List<Reservation> held : List.of(List.<Reservation>of(), first.reservations())) {
        PreemptionPlan again = plan(enabled(), tree, shares, apps, nodes, containers, starvation, marked, held);
        assertThat(again.decisions()).isEmpty();
        assertThat(again.notPreempted()).singleElement()
            .satisfies(n -> assertThat(n.reason()).contains("3 of 3", "no node can make room"));
      }
    }

    @Test
    void spaceHeldForAStarvedApplicationIsNotCountedAsFree() {
      // app2-c7 and app2-c6 were killed for app3, which holds 4 GB on n3 now showing 4 GB unallocated, but
      // app3 has not been given it yet. app2 is down to its 12 GB share. app4 also starves for one 2 GB
      // container, and n3 is the first node walked.
      List<ContainerSnapshot> afterKill = containers.stream()
          .filter(c -> !List.of("app2-c6", "app2-c7").contains(c.containerId())).toList();
      List<NodeView> walk = List.of(node("n3", res(8, 4), res(4, 2)), full("n1"), full("n2"));
      List<AppSnapshot> withApp4 = List.of(
          app("app1", "root.tenant1", res(8, 4), Resource.NONE, Resource.NONE),
          app("app2", "root.tenant2", res(12, 6), Resource.NONE, Resource.NONE),
          app("app4", "root.tenant3", Resource.NONE, GB2, GB2));
      FairShares s = new FairShares(Map.of(), Map.of("app1", res(6, 3), "app2", res(12, 6), "app4", res(6, 3)));
      Starvation app4 = starving("app4", "root.tenant3", GB2);

      // With the hold, n3 has nothing to offer (app2 can give nothing) and n1 makes room from app1.
      PreemptionPlan held = plan(enabled(), tree, s, withApp4, walk, afterKill, app4, Set.of(),
          List.of(new Reservation("n3", "app3", res(4, 2))));
      assertThat(held.decisions()).extracting(PreemptionDecision::nodeId, PreemptionDecision::containerIds)
          .containsExactly(tuple("n1", List.of("app1-c3")));
      assertThat(held.decisions().get(0).details().nodeFreeBefore()).isEqualTo(Resource.NONE);

      // Without it, n3's unallocated 4 GB already holds the request: the search stops there, with
      // nothing to preempt.
      PreemptionPlan unheld = plan(enabled(), tree, s, withApp4, walk, afterKill, app4, Set.of());
      assertThat(unheld.decisions()).isEmpty();
      assertThat(unheld.notPreempted()).singleElement()
          .satisfies(n -> assertThat(n.reason()).contains("already unallocated", "n3"));
    }
  }

  @Test
  void starvationIsServedInWholeContainersOnly() {
    // 819 MB of starvation against 2 GB requests is not one container: nothing is preempted, though b
    // has plenty above its share.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(full("n1"));
    List<ContainerSnapshot> cs = List.of(container("b1", "b", "n1", res(4, 2), false, 1),
        container("b2", "b", "n1", res(4, 2), false, 2));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, res(4, 2), GB2),
        app("b", "root.b", res(8, 4), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(4, 2), "b", Resource.NONE));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", mb(819, 0)), Set.of());
    assertThat(plan.decisions()).isEmpty();
    assertThat(plan.reservations()).isEmpty();
    assertThat(plan.notPreempted()).singleElement()
        .satisfies(n -> assertThat(n.reason()).contains("no whole container", "2 x <memory:2048, vCores:1>"));

    // 4095 MB is one container; 4096 two.
    assertThat(plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", mb(4095, 0)), Set.of())
        .decisions()).hasSize(1);
    assertThat(plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", mb(4096, 0)), Set.of())
        .containerIds()).containsExactly("b2", "b1");
  }

  @Test
  void nothingIsPlannedWhileTheClusterIsNotBusyEnough() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", Duration.ZERO, 1.0));
    // 12 of 16 GB and 4 of 8 vcores used: utilization max(0.75, 0.5) = 0.75, not above 0.8.
    List<NodeView> nodes = List.of(node("n1", res(8, 4), res(8, 3)), node("n2", res(8, 4), res(4, 1)));
    List<ContainerSnapshot> cs = List.of(container("b1", "b", "n1", res(8, 3), false, 1), container("b2", "b", "n2", res(4, 1), false, 2));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, res(8, 1), res(8, 1)),
        app("b", "root.b", res(12, 4), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(8, 4), "b", res(8, 4)));
    Starvation starvation = starving("a", "root.a", res(8, 1));

    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starvation, Set.of());
    assertThat(plan.attempted()).isFalse();
    assertThat(plan.decisions()).isEmpty();
    assertThat(plan.clusterUtilization()).isEqualTo(0.75);
    assertThat(plan.reason()).contains("0.750", "0.800");

    // Exactly at the threshold is still not above it (Hadoop compares strictly).
    PreemptionSettings at075 = new PreemptionSettings(true, 0.75, Duration.ofSeconds(15));
    assertThat(plan(at075, tree, shares, apps, nodes, cs, starvation, Set.of()).attempted()).isFalse();
    // With the threshold at 0.70 preemption runs. a wants one 8 GB container on one node. On n1, b's only
    // container is 8 GB and taking it would leave b at 4 GB, below its 8 GB share. On n2, 4 GB are free and
    // b's 4 GB container can go (b 12 -> 8 GB, exactly its share): 4 + 4 = 8 GB fits.
    PreemptionSettings at070 = new PreemptionSettings(true, 0.70, Duration.ofSeconds(15));
    PreemptionPlan busy = plan(at070, tree, shares, apps, nodes, cs, starvation, Set.of());
    assertThat(busy.attempted()).isTrue();
    assertThat(busy.decisions()).singleElement().satisfies(d -> {
      assertThat(d.nodeId()).isEqualTo("n2");
      assertThat(d.containerIds()).containsExactly("b2");
      assertThat(d.details().nodeFreeBefore()).isEqualTo(res(4, 3));
    });

    PreemptionPlan disabled = plan(PreemptionSettings.DEFAULTS, tree, shares, apps, nodes, cs, starvation, Set.of());
    assertThat(disabled.attempted()).isFalse();
    assertThat(disabled.reason()).isEqualTo("preemption is disabled");
  }

  @Test
  void utilizationIsComparedInSinglePrecisionAsHadoopDoes() {
    // 4097 MB of 5120 MB is 0.80019..., above 0.8 in either precision. 800,000,012 of 1,000,000,000 is
    // above 0.8 in double precision, but in floats it is 0.8f, not above Hadoop's float threshold.
    PreemptionSettings s = PreemptionSettings.enabledWithDefaults();
    assertThat(s.shouldAttempt(mb(4097, 0), mb(5120, 4))).isTrue();
    assertThat(s.shouldAttempt(mb(800_000_012L, 0), mb(1_000_000_000L, 4))).isFalse();
    // No cluster: Hadoop's 0/0 is NaN, never above any threshold.
    assertThat(new PreemptionSettings(true, 0.0, Duration.ZERO).shouldAttempt(Resource.NONE, Resource.NONE)).isFalse();
    assertThat(PreemptionSettings.recheckDelay(Duration.ofSeconds(15))).isEqualTo(Duration.ofSeconds(25));
  }

  @Test
  void queuesThatDisallowPreemptionKeepTheirContainersAndSoDoTheirChildren() {
    // root.prod forbids preemption; its child root.prod.etl inherits that although it says nothing.
    QueueSpec tree = root(
        parent("root.prod", false, leaf("root.prod.etl", null, 0.5)),
        leaf("root.dev", null, 0.5),
        leaf("root.adhoc", Duration.ZERO, 1.0));
    // n1: etl holds 6 GB, far above its 2 GB share; n2: dev holds 4 GB, share 2 GB.
    List<NodeView> nodes = List.of(full("n1"), node("n2", res(8, 4), res(8, 4)));
    List<ContainerSnapshot> cs = List.of(
        container("etl-1", "etl", "n1", GB2, false, 1),
        container("etl-2", "etl", "n1", GB2, false, 2),
        container("etl-3", "etl", "n1", GB2, false, 3),
        container("etl-4", "etl", "n1", GB2, false, 4),
        container("dev-1", "dev", "n2", GB2, false, 5),
        container("dev-2", "dev", "n2", GB2, false, 6),
        container("other", "x", "n2", res(4, 2), false, 7));
    List<AppSnapshot> apps = List.of(
        app("etl", "root.prod.etl", res(8, 4), Resource.NONE, Resource.NONE),
        app("dev", "root.dev", res(4, 2), Resource.NONE, Resource.NONE),
        app("x", "root.prod.etl", res(4, 2), Resource.NONE, Resource.NONE),
        app("adhoc", "root.adhoc", Resource.NONE, res(4, 2), GB2));
    FairShares shares = new FairShares(Map.of(), Map.of("etl", res(2, 1), "dev", res(2, 1), "x", res(2, 1), "adhoc", res(4, 2)));

    // adhoc is owed two 2 GB containers. Only dev may give, and only one (4 -> 2 GB = its share).
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("adhoc", "root.adhoc", res(4, 2)), Set.of());
    assertThat(plan.containerIds()).containsExactly("dev-2");
    assertThat(plan.notPreempted()).singleElement().satisfies(n -> assertThat(n.reason()).contains("1 of 2"));
  }

  @Test
  void victimsAreNeverTakenBelowTheirFairShare() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    // b holds 6 GB against a 5 GB share: any 2 GB container would leave it at 4 GB, below its share.
    List<NodeView> nodes = List.of(node("n1", res(6, 3), res(6, 3)));
    List<ContainerSnapshot> cs = List.of(
        container("b1", "b", "n1", GB2, false, 1), container("b2", "b", "n1", GB2, false, 2),
        container("b3", "b", "n1", GB2, false, 3));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, GB2, GB2),
        app("b", "root.b", res(6, 3), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(1, 1), "b", res(5, 2)));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", GB2), Set.of());
    assertThat(plan.decisions()).isEmpty();
    assertThat(plan.notPreempted()).extracting(PreemptionPlan.NotPreempted::appId).containsExactly("a");
  }

  @Test
  void amContainersAreTakenOnlyWhenNothingElseWillDo() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5), parent("root.keep", false,
        leaf("root.keep.k", null, 0.5)));
    FairShares shares = new FairShares(Map.of(), Map.of("a", GB2, "b", Resource.NONE, "k", Resource.NONE));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, GB2, GB2),
        app("b", "root.b", res(4, 2), Resource.NONE, Resource.NONE),
        app("k", "root.keep.k", res(2, 1), Resource.NONE, Resource.NONE));

    // n1 holds b's AM (newer) and a b task: the task goes, though the AM is the newest container.
    List<NodeView> one = List.of(node("n1", res(4, 2), res(4, 2)));
    List<ContainerSnapshot> amAndTask = List.of(container("b-am", "b", "n1", GB2, true, 9),
        container("b-task", "b", "n1", GB2, false, 1));
    assertThat(plan(enabled(), tree, shares, apps, one, amAndTask, starving("a", "root.a", GB2), Set.of())
        .containerIds()).containsExactly("b-task");

    // n1 holds only b's AM and n2 only b's task. n1 is walked first, but its set would cost an AM: n2 wins.
    List<NodeView> two = List.of(node("n1", res(2, 1), res(2, 1)), node("n2", res(2, 1), res(2, 1)));
    List<ContainerSnapshot> split = List.of(container("b-am", "b", "n1", GB2, true, 1),
        container("b-task", "b", "n2", GB2, false, 2));
    assertThat(plan(enabled(), tree, shares, apps, two, split, starving("a", "root.a", GB2), Set.of())
        .containerIds()).containsExactly("b-task");

    // When the only other container on the node belongs to a queue that may not be preempted, the AM goes,
    // and the decision says so.
    List<ContainerSnapshot> amOnly = List.of(container("b-am", "b", "n1", GB2, true, 1),
        container("k-task", "k", "n1", GB2, false, 2));
    List<AppSnapshot> bHasOnlyItsAm = List.of(apps.get(0), app("b", "root.b", GB2, Resource.NONE, Resource.NONE), apps.get(2));
    PreemptionPlan plan = plan(enabled(), tree, shares, bHasOnlyItsAm, one, amOnly,
        starving("a", "root.a", GB2), Set.of());
    assertThat(plan.containerIds()).containsExactly("b-am");
    assertThat(plan.decisions().get(0).details().victims()).singleElement()
        .satisfies(v -> assertThat(v.amContainers()).isEqualTo(1));
    assertThat(plan.decisions().get(0).reason()).contains("1 AM");
  }

  @Test
  void theFirstNodeWalkedThatCostsNoAmWinsWhateverElseRunsThere() {
    // a wants one 2 GB container. n1, walked first, runs two AMs and a 4 GB b task; n2 one AM and a
    // 2 GB b task. Hadoop counts AMs in the set to preempt, not on the node: n1's set {b-1} costs none,
    // so n1 wins and b loses 4 GB where 2 GB on n2 would have done.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5),
        parent("root.keep", false, leaf("root.keep.k", null, 0.5)));
    List<NodeView> nodes = List.of(full("n1"), full("n2"));
    List<ContainerSnapshot> cs = List.of(
        container("k-am", "k", "n1", GB2, true, 1), container("b-am", "b", "n1", GB2, true, 2),
        container("b-1", "b", "n1", res(4, 2), false, 3),
        container("k2-am", "k2", "n2", GB2, true, 4), container("b-2", "b", "n2", GB2, false, 5),
        container("k-1", "k", "n2", res(4, 2), false, 6));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, GB2, GB2),
        app("b", "root.b", res(8, 4), Resource.NONE, Resource.NONE),
        app("k", "root.keep.k", res(6, 3), Resource.NONE, Resource.NONE),
        app("k2", "root.keep.k", GB2, Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", GB2, "b", res(2, 1), "k", Resource.NONE, "k2", Resource.NONE));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", GB2), Set.of());
    assertThat(plan.decisions()).extracting(PreemptionDecision::nodeId, PreemptionDecision::containerIds)
        .containsExactly(tuple("n1", List.of("b-1")));
  }

  @Test
  void aLaterNodeWinsOnlyWithFewerAmContainers() {
    // Every node needs AMs: n1 two (its only containers), n2 one. n2 is walked later but costs fewer.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(node("n1", res(2, 2), res(2, 2)), node("n2", res(2, 2), res(2, 2)),
        node("n3", res(2, 2), res(2, 2)));
    List<ContainerSnapshot> cs = List.of(
        container("am-1", "b", "n1", mb(1024, 1), true, 1), container("am-2", "b", "n1", mb(1024, 1), true, 2),
        container("am-3", "b", "n2", mb(1024, 1), true, 3), container("t-1", "b", "n2", mb(1024, 1), false, 4),
        container("am-4", "b", "n3", mb(1024, 1), true, 5), container("t-2", "b", "n3", mb(1024, 1), false, 6));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, GB2, GB2),
        app("b", "root.b", res(6, 6), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", GB2, "b", Resource.NONE));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", GB2), Set.of());
    // n3 costs one AM too, no fewer than n2, so n2 stands.
    assertThat(plan.decisions()).extracting(PreemptionDecision::nodeId, PreemptionDecision::containerIds)
        .containsExactly(tuple("n2", List.of("t-1", "am-3")));
  }

  @Test
  void theFreedSpaceMustFitTheAskOnOneNode() {
    // a wants one 4 GB container. Each node has a 2 GB container b can spare and nothing free: 4 GB in
    // total, but no node can host the ask, so nothing is preempted (freeing would help nobody).
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(node("n1", res(2, 1), res(2, 1)), node("n2", res(2, 1), res(2, 1)));
    List<ContainerSnapshot> cs = List.of(container("b1", "b", "n1", GB2, false, 1), container("b2", "b", "n2", GB2, false, 2));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, res(4, 2), res(4, 2)),
        app("b", "root.b", res(4, 2), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(4, 2), "b", Resource.NONE));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", res(4, 2)), Set.of());
    assertThat(plan.decisions()).isEmpty();
    assertThat(plan.notPreempted()).singleElement().satisfies(n -> assertThat(n.reason()).contains("no node can make room"));
  }

  @Test
  void freeSpaceOnTheNodeCountsTowardTheAsk() {
    // n1 has 2 GB free (utilization 0.75) and a 2 GB b task: preempting the task makes room for a's 4 GB container.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(node("n1", res(8, 4), res(6, 3)));
    List<ContainerSnapshot> cs = List.of(container("b1", "b", "n1", res(4, 2), false, 1),
        container("b2", "b", "n1", GB2, false, 2));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, res(4, 2), res(4, 2)),
        app("b", "root.b", res(6, 3), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(4, 2), "b", Resource.NONE));
    PreemptionPlan plan = plan(ANY_LOAD, tree, shares, apps, nodes, cs, starving("a", "root.a", res(4, 2)), Set.of());
    assertThat(plan.decisions()).singleElement().satisfies(d -> {
      assertThat(d.containerIds()).containsExactly("b2");
      assertThat(d.freed()).isEqualTo(GB2);
      assertThat(d.details().nodeFreeBefore()).isEqualTo(GB2);
    });
  }

  @Test
  void aNodeThatAlreadyHasTheRoomStillGivesItsFirstPreemptableContainer() {
    // n1 has 2 GB free, enough for a's 2 GB container, yet Hadoop takes the first candidate that may go
    // before it looks at the room: b's 8 GB task.
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5),
        parent("root.keep", false, leaf("root.keep.k", null, 0.5)));
    List<NodeView> nodes = List.of(node("n1", res(10, 5), res(8, 4)));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, GB2, GB2),
        app("b", "root.b", res(8, 4), Resource.NONE, Resource.NONE),
        app("k", "root.keep.k", res(8, 4), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", GB2, "b", Resource.NONE, "k", Resource.NONE));
    PreemptionPlan plan = plan(ANY_LOAD, tree, shares, apps, nodes,
        List.of(container("b1", "b", "n1", res(8, 4), false, 1)), starving("a", "root.a", GB2), Set.of());
    assertThat(plan.containerIds()).containsExactly("b1");

    // When its first candidate may not go, the node offers an empty set: nothing is preempted, and the
    // search ends there.
    PreemptionPlan kept = plan(ANY_LOAD, tree, shares, apps, nodes,
        List.of(container("k1", "k", "n1", res(8, 4), false, 1)), starving("a", "root.a", GB2), Set.of());
    assertThat(kept.decisions()).isEmpty();
    assertThat(kept.notPreempted()).singleElement()
        .satisfies(n -> assertThat(n.reason()).contains("already unallocated", "n1"));
  }

  @Test
  void containersAreTakenNewestFirstUntilTheRequestFits() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(node("n1", res(9, 6), res(9, 6)));
    // Newest first b-new (1 GB), then b-mid (4 GB), then b-old (4 GB). For a 4 GB ask b-new and b-mid
    // (5 GB) are taken; Hadoop does not give back the one the request turns out not to need.
    List<ContainerSnapshot> cs = List.of(container("b-old", "b", "n1", res(4, 2), false, 1),
        container("b-mid", "b", "n1", res(4, 2), false, 2), container("b-new", "b", "n1", res(1, 2), false, 3));
    List<AppSnapshot> apps = List.of(app("a", "root.a", Resource.NONE, res(4, 2), res(4, 2)),
        app("b", "root.b", res(9, 6), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(4, 2), "b", Resource.NONE));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starving("a", "root.a", res(4, 2)), Set.of());
    assertThat(plan.containerIds()).containsExactly("b-new", "b-mid");
    assertThat(plan.reservations()).containsExactly(new Reservation("n1", "a", res(5, 4)));
  }

  @Test
  void alreadyMarkedContainersAreNotChosenAgainAndAStarvedAppBelowItsShareLosesNothing() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = List.of(node("n1", res(8, 4), res(8, 4)));
    List<ContainerSnapshot> cs = List.of(
        container("a-1", "a", "n1", GB2, false, 9),
        container("b-1", "b", "n1", GB2, false, 1), container("b-2", "b", "n1", GB2, false, 2),
        container("b-3", "b", "n1", GB2, false, 3));
    List<AppSnapshot> apps = List.of(app("a", "root.a", GB2, res(4, 2), GB2),
        app("b", "root.b", res(6, 3), Resource.NONE, Resource.NONE));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(6, 3), "b", res(2, 1)));
    // b-3 (the newest of b's) was marked on an earlier pass. b counts as 4 GB now, so it can give one
    // more. a's own task, the newest on the node, is a candidate too, but a is below its share.
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs,
        starving("a", "root.a", res(4, 2)), Set.of("b-3"));
    assertThat(plan.containerIds()).containsExactly("b-2");
    assertThat(plan.decisions().get(0).details().victims().get(0).usageBefore()).isEqualTo(res(4, 2));
  }

  @Test
  void nodesAreWalkedInTheOrderGivenAndTheInputsAreLeftAlone() {
    QueueSpec tree = root(leaf("root.a", Duration.ZERO, 1.0), leaf("root.b", null, 0.5));
    List<NodeView> nodes = new ArrayList<>(List.of(full("n2"), full("n1")));
    List<ContainerSnapshot> cs = new ArrayList<>(List.of(
        container("b-1", "b", "n1", res(8, 4), false, 1), container("b-2", "b", "n2", res(8, 4), false, 1)));
    List<AppSnapshot> apps = new ArrayList<>(List.of(app("a", "root.a", Resource.NONE, res(8, 4), res(8, 4)),
        app("b", "root.b", res(16, 8), Resource.NONE, Resource.NONE)));
    FairShares shares = new FairShares(Map.of(), Map.of("a", res(8, 4), "b", res(8, 4)));
    Set<String> marked = new HashSet<>();
    List<NodeView> nodesBefore = List.copyOf(nodes);
    List<ContainerSnapshot> csBefore = List.copyOf(cs);
    List<AppSnapshot> appsBefore = List.copyOf(apps);

    Starvation starvation = starving("a", "root.a", res(8, 4));
    PreemptionPlan plan = plan(enabled(), tree, shares, apps, nodes, cs, starvation, marked);
    // Either node would do: the first one given.
    assertThat(plan.decisions()).extracting(PreemptionDecision::nodeId).containsExactly("n2");
    assertThat(plan(enabled(), tree, shares, reversed(apps), nodes, reversed(cs), starvation, marked)).isEqualTo(plan);
    assertThat(plan(enabled(), tree, shares, apps, reversed(nodes), cs, starvation, marked).decisions())
        .extracting(PreemptionDecision::nodeId).containsExactly("n1");
    assertThat(nodes).isEqualTo(nodesBefore);
    assertThat(cs).isEqualTo(csBefore);
    assertThat(apps).isEqualTo(appsBefore);
    assertThat(marked).isEmpty();
  }

  private static <T> List<T> reversed(List<T> list) {
    List<T> copy = new ArrayList<>(list);
    Collections.reverse(copy);
    return copy;
  }
}
