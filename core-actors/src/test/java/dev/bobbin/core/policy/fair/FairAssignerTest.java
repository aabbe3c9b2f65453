package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import static dev.bobbin.core.policy.fair.FairTestQueues.leaf;
import static dev.bobbin.core.policy.fair.FairTestQueues.mb;
import static dev.bobbin.core.policy.fair.FairTestQueues.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FairAssignerTest {
  private static final Resource GB = mb(1024, 1);

  /** One application: what it asks for and what it already holds. */
  private record App(AppView view, AppSnapshot snapshot) {}

  private static App app(String id, String queue, long submit, Resource usage, Ask... asks) {
    return app(id, queue, submit, 0, usage, Resource.NONE, asks);
  }

  private static App app(String id, String queue, long submit, int priority, Resource usage, Resource amUsage, Ask... asks) {
    String attempt = id.replace("application", "appattempt") + "_000001";
    AppView view = new AppView(id, attempt, queue, priority, submit, List.of(asks));
    Resource pending = FairAssigner.pending(List.of(asks));
    return new App(view, new AppSnapshot(id, attempt, queue, priority, submit, usage, amUsage, pending, GB));
  }

  private static Ask am(Resource size) {
    return new Ask(0, Ask.ANY, size, 1, true, -1, true);
  }

  private static NodeView node(String id, Resource capacity, Resource allocated) {
    return new NodeView(id, id.split(":")[0], "/default-rack", capacity, allocated);
  }

  private static AllocationPlan assign(QueueSpec root, List<NodeView> nodes, Map<String, String> reserved, App... apps) {
    Resource cluster = nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
    List<AppSnapshot> snapshots = new ArrayList<>();
    List<AppView> views = new ArrayList<>();
    for (App a : apps) {
      snapshots.add(a.snapshot());
      views.add(a.view());
    }
    FairShares shares = FairShareCalculator.compute(root, cluster, snapshots);
    return FairAssigner.assign(root, shares, nodes, views, snapshots, reserved);
  }

  private static List<String> appIds(AllocationPlan plan) {
    return plan.assignments().stream().map(Assignment::appId).toList();
  }

  private static QueueSpec twoQueues(double weightA, double weightB) {
    return queue("root").children(leaf("root.a", weightA), leaf("root.b", weightB)).build();
  }

  @Test
  void theQueueFurthestBelowItsShareGoesFirst() {
    // a already holds 4096 MB, b nothing; 12288 MB free and both ask for eight 1 GB containers.
    // b is served until it catches up with a at 4096; on a tie the name decides (root.a first),
    // and from there they alternate: b b b b a b a b a b a b.
    AllocationPlan plan = assign(twoQueues(1, 1), List.of(node("n1:1", mb(16384, 16), mb(4096, 4))), Map.of(),
        app("application_1_0001", "root.a", 1, mb(4096, 4), Ask.anyOf(GB, 8)),
        app("application_1_0002", "root.b", 2, Resource.NONE, Ask.anyOf(GB, 8)));
    String a = "application_1_0001";
    String b = "application_1_0002";
    assertThat(appIds(plan)).containsExactly(b, b, b, b, a, b, a, b, a, b, a, b);
  }

  @Test
  void aNodeWithRoomForExactlyTheSmallestAskIsUsedAndFullOnesAreNot() {
    // n2's free <1024, 1> is the least of the sizes asked, resource by resource.
    AllocationPlan plan = assign(twoQueues(1, 1), List.of(node("n1:1", mb(4096, 4), mb(4096, 0)),
            node("n2:1", mb(4096, 4), mb(3072, 3))), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(mb(2048, 1), 1), Ask.anyOf(mb(1024, 2), 1)),
        app("application_1_0002", "root.b", 2, Resource.NONE, Ask.anyOf(mb(1024, 1), 1)));
    assertThat(plan.assignments()).singleElement().satisfies(a -> {
      assertThat(a.appId()).isEqualTo("application_1_0002");
      assertThat(a.nodeId()).isEqualTo("n2:1");
    });
  }

  @Test
  void weightsSetThePace() {
    // a has weight 2, b weight 1, room for three containers. Both at 0: tie, root.a first. Then
    // a is at 1024 / 2 = 512 and b at 0: b. Then a 512 against b 1024: a.
    AllocationPlan plan = assign(twoQueues(2, 1), List.of(node("n1:1", mb(3072, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 5)),
        app("application_1_0002", "root.b", 2, Resource.NONE, Ask.anyOf(GB, 5)));
    assertThat(appIds(plan)).containsExactly("application_1_0001", "application_1_0002", "application_1_0001");
  }

  @Test
  void aQueueBelowItsMinShareComesFirst() {
    // a holds 6144 MB against a min share of 8192; b holds nothing. By usage b would go first,
    // but a is needy: it gets two containers to reach its min, then b takes the 8192 MB left.
    QueueSpec root = queue("root").children(queue("root.a").min(8192, 0).build(), leaf("root.b", 1)).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(16384, 16), mb(6144, 6))), Map.of(),
        app("application_1_0001", "root.a", 1, mb(6144, 6), Ask.anyOf(GB, 10)),
        app("application_1_0002", "root.b", 2, Resource.NONE, Ask.anyOf(GB, 10)));
    assertThat(appIds(plan).subList(0, 2)).containsOnly("application_1_0001");
    assertThat(appIds(plan).subList(2, plan.assignments().size())).containsOnly("application_1_0002").hasSize(8);
  }

  @Test
  void drfComparesDominantShares() {
    // Cluster <10240 MB, 10 vcores>. a holds <2048, 1>: its dominant share is memory, 0.2. b holds
    // <1024, 3>: dominant vcores, 0.3. Under DRF a is further behind and goes first; under FAIR,
    // which looks at memory only, b (1024 < 2048) does.
    NodeView n = node("n1:1", mb(10240, 10), mb(3072, 4));
    App a = app("application_1_0001", "root.a", 1, mb(2048, 1), Ask.anyOf(GB, 1));
    App b = app("application_1_0002", "root.b", 2, mb(1024, 3), Ask.anyOf(GB, 1));
    QueueSpec drf = queue("root").policy(FairPolicyKind.DRF).children(leaf("root.a", 1), leaf("root.b", 1)).build();
    assertThat(assign(drf, List.of(n), Map.of(), a, b).assignments().get(0).appId()).isEqualTo("application_1_0001");
    assertThat(assign(twoQueues(1, 1), List.of(n), Map.of(), a, b).assignments().get(0).appId())
        .isEqualTo("application_1_0002");
  }

  @Test
  void aQueueIsNeverTakenAboveItsMaxShare() {
    // a may hold 2500 MB: two 1 GB containers fit (2048), a third would make 3072. Hadoop's
    // pre-check looks at usage before the container; here the container itself must fit.
    QueueSpec root = queue("root").children(queue("root.a").max(2500, 100).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(8192, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 5)));
    assertThat(plan.assignments()).hasSize(2);
  }

  @Test
  void aParentsMaxShareBindsAllItsChildren() {
    // p may hold 3072 MB across p.x and p.y, which ask for five containers each.
    QueueSpec root = queue("root").children(
        queue("root.p").max(3072, 100).children(leaf("root.p.x", 1), leaf("root.p.y", 1)).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(16384, 16), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.p.x", 1, Resource.NONE, Ask.anyOf(GB, 5)),
        app("application_1_0002", "root.p.y", 2, Resource.NONE, Ask.anyOf(GB, 5)));
    assertThat(plan.assignments()).hasSize(3);
  }

  @Test
  void amContainersStayWithinMaxAmShare() {
    // a is the only queue of an 8192 MB, 8 vcore cluster, so its fair share is <8192, 0> (FAIR
    // splits memory only). With maxAmShare 0.5 its AMs may use ceil(0.5 × 8192) = 4096 MB, and,
    // as the vcore share is 0, ceil(0.5 × min(8 available, max)) = 4 vcores. Two 2 GB AMs fit;
    // the third application waits.
    QueueSpec root = queue("root").children(queue("root.a").maxAmShare(0.5f).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(8192, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, am(mb(2048, 1))),
        app("application_1_0002", "root.a", 2, Resource.NONE, am(mb(2048, 1))),
        app("application_1_0003", "root.a", 3, Resource.NONE, am(mb(2048, 1))));
    assertThat(appIds(plan)).containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
    assertThat(plan.assignments()).allSatisfy(a -> assertThat(a.ask().am()).isTrue());
  }

  @Test
  void runningAmsCountAgainstTheLimitButNotAgainstOtherContainers() {
    // a's running AMs already use 4096 MB, its whole AM allowance: the new application's AM waits,
    // while the running application still gets its ordinary container.
    QueueSpec root = queue("root").children(queue("root.a").maxAmShare(0.5f).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(16384, 16), mb(4096, 2))), Map.of(),
        app("application_1_0001", "root.a", 1, 0, mb(4096, 2), mb(4096, 2), Ask.anyOf(GB, 1)),
        app("application_1_0002", "root.a", 2, 0, Resource.NONE, Resource.NONE, am(mb(1024, 1))));
    // (a's fair share is 16384 MB, so 0.5 × 16384 = 8192 would leave room: shrink it with a max.)
    QueueSpec capped = queue("root").children(queue("root.a").maxAmShare(0.5f).max(8192, 16).build()).build();
    AllocationPlan cappedPlan = assign(capped, List.of(node("n1:1", mb(16384, 16), mb(4096, 2))), Map.of(),
        app("application_1_0001", "root.a", 1, 0, mb(4096, 2), mb(4096, 2), Ask.anyOf(GB, 1)),
        app("application_1_0002", "root.a", 2, 0, Resource.NONE, Resource.NONE, am(mb(1024, 1))));
    assertThat(appIds(plan)).containsExactlyInAnyOrder("application_1_0001", "application_1_0002");
    assertThat(appIds(cappedPlan)).containsExactly("application_1_0001");
  }

  @Test
  void theAmAskComesBeforeTheApplicationsOtherAsks() {
    QueueSpec root = queue("root").children(leaf("root.a", 1)).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(1024, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 1), am(GB)));
    assertThat(plan.assignments()).singleElement().satisfies(a -> assertThat(a.ask().am()).isTrue());
  }

  @Test
  void applicationsBeyondMaxRunningAppsGetNothing() {
    QueueSpec root = queue("root").children(queue("root.a").maxRunningApps(1).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(8192, 8), Resource.NONE)), Map.of(),
        app("application_1_0002", "root.a", 20, Resource.NONE, Ask.anyOf(GB, 2)),
        app("application_1_0001", "root.a", 10, Resource.NONE, Ask.anyOf(GB, 2)));
    assertThat(appIds(plan)).containsOnly("application_1_0001").hasSize(2);
  }

  @Test
  void aFifoLeafServesByPriorityThenSubmission() {
    // Room for one container: the later application has the higher priority and goes first.
    QueueSpec root = queue("root").children(queue("root.a").policy(FairPolicyKind.FIFO).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(1024, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 10, 1, Resource.NONE, Resource.NONE, Ask.anyOf(GB, 1)),
        app("application_1_0002", "root.a", 20, 5, Resource.NONE, Resource.NONE, Ask.anyOf(GB, 1)));
    assertThat(appIds(plan)).containsExactly("application_1_0002");
  }

  @Test
  void aReservedNodeGoesOnlyToItsApplication() {
    // n1 was freed by preemption for b's starved application. a is further below its share (it
    // holds nothing, b holds 8192 MB) but gets only n2.
    AllocationPlan plan = assign(twoQueues(1, 1),
        List.of(node("n1:1", mb(4096, 8), Resource.NONE), node("n2:1", mb(12288, 8), mb(8192, 4))),
        Map.of("n1:1", "application_1_0002"),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 10)),
        app("application_1_0002", "root.b", 2, mb(8192, 4), Ask.anyOf(GB, 2)));
    assertThat(plan.assignments()).filteredOn(a -> a.nodeId().equals("n1:1"))
        .extracting(Assignment::appId).containsExactly("application_1_0002", "application_1_0002");
    assertThat(plan.assignments()).filteredOn(a -> a.nodeId().equals("n2:1"))
        .extracting(Assignment::appId).containsOnly("application_1_0001").hasSize(4);
    assertThat(plan.assignments().get(0).reason()).contains("reserved for starved application_1_0002");
  }

  @Test
  void aLimitedPlanIsTheStartOfThePlanWithoutALimit() {
    QueueSpec root = twoQueues(2, 1);
    List<NodeView> nodes = List.of(node("n1:1", mb(4096, 8), Resource.NONE), node("n2:1", mb(12288, 8), mb(2048, 2)),
        node("n3:1", mb(8192, 8), Resource.NONE));
    Map<String, String> reserved = Map.of("n1:1", "application_1_0002");
    App a = app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 10));
    App b = app("application_1_0002", "root.b", 2, mb(2048, 2), Ask.anyOf(GB, 6));
    App c = app("application_1_0003", "root.a", 3, Resource.NONE, Ask.anyOf(mb(2048, 1), 3));
    List<Assignment> whole = assign(root, nodes, reserved, a, b, c).assignments();
    assertThat(whole).hasSizeGreaterThan(10);

    for (int limit = 0; limit <= whole.size() + 1; limit++) {
      Resource cluster = nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
      List<AppSnapshot> snapshots = List.of(a.snapshot(), b.snapshot(), c.snapshot());
      FairShares shares = FairShareCalculator.compute(root, cluster, snapshots);
      List<Assignment> limited = FairAssigner.assign(root, shares, nodes,
          List.of(a.view(), b.view(), c.view()), snapshots, reserved, limit).assignments();
      assertThat(limited).as("limit %d", limit).isEqualTo(whole.subList(0, Math.min(limit, whole.size())));
    }
  }

  @Test
  void aReservationForAnApplicationWithNothingToPlaceKeepsTheNodeEmpty() {
    AllocationPlan plan = assign(twoQueues(1, 1), List.of(node("n1:1", mb(4096, 8), Resource.NONE)),
        Map.of("n1:1", "application_1_0009"),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 10)));
    assertThat(plan.isEmpty()).isTrue();
  }

  @Test
  void aContainerThatDoesNotFitTheNodeWaitsForAnother() {
    QueueSpec root = queue("root").children(leaf("root.a", 1)).build();
    AllocationPlan plan = assign(root,
        List.of(node("n1:1", mb(4096, 8), mb(2048, 1)), node("n2:1", mb(4096, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, mb(2048, 1), Ask.anyOf(mb(3072, 1), 1)));
    assertThat(plan.assignments()).singleElement().satisfies(a -> assertThat(a.nodeId()).isEqualTo("n2:1"));
  }

  @Test
  void theReasonNamesTheQueueItsStandingAndTheApplication() {
    QueueSpec root = queue("root").children(queue("root.a").min(2048, 0).build()).build();
    AllocationPlan plan = assign(root, List.of(node("n1:1", mb(4096, 8), Resource.NONE)), Map.of(),
        app("application_1_0001", "root.a", 1, Resource.NONE, Ask.anyOf(GB, 1)));
    assertThat(plan.assignments().get(0).reason())
        .contains("root.a", "usage <memory:0, vCores:0>", "fair share <memory:4096, vCores:0>",
            "below its min share", "application_1_0001", "on n1:1");
  }
}
