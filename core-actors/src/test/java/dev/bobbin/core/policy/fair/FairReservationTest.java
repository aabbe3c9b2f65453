package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.FairTestQueues.leaf;
import static dev.bobbin.core.policy.fair.FairTestQueues.mb;
import static dev.bobbin.core.policy.fair.FairTestQueues.queue;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Node reservations as Hadoop's FairScheduler makes them: a starved application's container too big
 * for any node's free space reserves a node it would fit once freed, and is placed there before
 * anyone else's smaller containers. The reservation threshold is Hadoop's default, 2048 MB.
 */
class FairReservationTest {
  private static final String A1 = "application_1_0001";
  private static final String A2 = "application_1_0002";
  private static final QueueSpec TWO_QUEUES = queue("root").children(leaf("root.a", 1), leaf("root.b", 1)).build();
  /** One 8 GB node with 6 GB used, by {@link #SMALL}. */
  private static final List<NodeView> ONE_NODE = List.of(node("n1", res(8, 8), res(6, 3)));
  /** A1 in queue a, wanting four more 1 GB containers. */
  private static final App SMALL = new App(A1, "root.a", res(6, 3), List.of(Ask.anyOf(res(1, 1), 4)));
  /** A2 in queue b, holding nothing and wanting one 4 GB container. */
  private static final App BIG = new App(A2, "root.b", Resource.NONE, List.of(Ask.anyOf(res(4, 1), 1)));

  /** An application with its usage and asks, in a queue of {@link #TWO_QUEUES}. */
  private record App(String id, String queue, Resource usage, List<Ask> asks) {
    AppView view() {
      return new AppView(id, id.replace("application", "appattempt") + "_000001", queue, 0, 1, asks);
    }

    AppSnapshot snapshot() {
      return new AppSnapshot(id, view().attemptId(), queue, 0, 1, usage, Resource.NONE, FairAssigner.pending(asks),
          Resource.NONE);
    }
  }

  private static NodeView node(String id, Resource capacity, Resource allocated) {
    return new NodeView(id, id, "/r", capacity, allocated);
  }

  /**
   * One pass with Hadoop's reservation settings; shares as computed for these applications, with
   * {@code shareOverride} in place of some applications' shares.
   */
  private static FairAssigner.Outcome pass(List<NodeView> nodes, FairPlacing.State state, Set<String> minShareStarved,
      Map<String, Resource> shareOverride, App... apps) {
    List<AppView> views = new ArrayList<>();
    List<AppSnapshot> snapshots = new ArrayList<>();
    for (App a : apps) {
      views.add(a.view());
      snapshots.add(a.snapshot());
    }
    Resource cluster = nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
    FairShares computed = FairShareCalculator.compute(TWO_QUEUES, cluster, snapshots);
    Map<String, Resource> appShares = new HashMap<>(computed.apps());
    appShares.putAll(shareOverride);
    FairShares shares = new FairShares(computed.queues(), appShares);
    return FairAssigner.assign(TWO_QUEUES, shares, nodes, views, snapshots, Map.of(), minShareStarved,
        FairPlacing.Settings.HADOOP_DEFAULTS, state, Integer.MAX_VALUE);
  }

  private static List<String> placed(FairAssigner.Outcome o) {
    return o.plan().assignments().stream().map(a -> a.appId() + "@" + a.nodeId()).toList();
  }

  @Test
  @SuppressWarnings("unchecked")
  void aBigRequestReservesANodeAndIsServedThereBeforeSmallerRequestsOfOthers() {
    // Two 8 GB nodes, each with 6 GB held by A1 (queue a), which wants ten more 1 GB containers.
    // A2 (queue b) arrives wanting one 4 GB container; it holds nothing, well below its fair share,
    // so it is starved. Nodes are walked n1, n2; queue b, using nothing, is offered each first.
    SimulatedCluster cluster = new SimulatedCluster(15_000);
    FairPolicySet policy = SimulatedCluster.policy("queues { a {}, b {} }");
    cluster.node("n1", res(8, 8)).node("n2", res(8, 8));
    cluster.app(A1, "root.a", 1, Ask.anyOf(res(1, 1), 10)).app(A2, "root.b", 2, Ask.anyOf(res(4, 1), 1));
    List<String> onN1 = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      onN1.add(cluster.run(A1, "n1", res(2, 1), false, 0));
      cluster.run(A1, "n2", res(2, 1), false, 0);
    }

    // Pass 1. n1 has 2 GB free: A2's 4 GB does not fit, so A2 reserves n1, which ends n1's turn.
    // n2 has 2 GB free: A2 may hold one reservation off its host (5 % of 2 nodes, rounded up), so
    // it reserves nothing more, and A1 takes n2's 2 GB. n1's 2 GB stay free.
    List<String> first = placements(cluster.tick(policy, 1000).placed());
    assertThat(first).containsExactly(A1 + "@n2", A1 + "@n2");
    assertThat(policy.nodeReservations()).containsOnlyKeys("n1");
    assertThat(policy.nodeReservations().get("n1").appId()).isEqualTo(A2);
    // The scheduler view shows it on queue b and on the root, as Hadoop's queue metrics do.
    Map<String, Object> root = (Map<String, Object>) policy.view(cluster).schedulerInfo().get("rootQueue");
    assertThat(root.get("reservedContainers")).isEqualTo(1);
    assertThat(root.get("reservedResources")).isEqualTo(res(4, 1));

    // Pass 2: still no room on n1 for A2, and nobody else may have n1's free 2 GB.
    assertThat(cluster.tick(policy, 1500).placed()).isEmpty();

    // One of A1's containers on n1 ends: 4 GB free there, and A2 gets its container on n1 at once,
    // ahead of A1's nine 1 GB requests. The reservation is used up.
    cluster.stop(onN1.get(0));
    List<Assignment> third = cluster.tick(policy, 2000).placed();
    assertThat(third).first().satisfies(a -> {
      assertThat(a.appId()).isEqualTo(A2);
      assertThat(a.nodeId()).isEqualTo("n1");
      assertThat(a.reason()).contains("node reserved for it");
    });
    assertThat(policy.nodeReservations()).isEmpty();
  }

  private static List<String> placements(List<Assignment> placed) {
    return placed.stream().map(a -> a.appId() + "@" + a.nodeId()).toList();
  }

  @Test
  void onlyAStarvedApplicationReserves() {
    // One 8 GB node with 6 GB used; A2 wants a 4 GB container and A1 1 GB ones. With A2's fair
    // share set to nothing it is not starved: it reserves nothing, and A1 takes the 2 GB free.
    Map<String, Resource> noShare = Map.of(A2, Resource.NONE);
    FairAssigner.Outcome notStarved = pass(ONE_NODE, FairPlacing.State.EMPTY, Set.of(), noShare, SMALL, BIG);
    assertThat(notStarved.state().reservations()).isEmpty();
    assertThat(placed(notStarved)).containsExactly(A1 + "@n1", A1 + "@n1");
    // Given min-share starvation by the last update, it reserves n1 after all.
    FairAssigner.Outcome minShare = pass(ONE_NODE, FairPlacing.State.EMPTY, Set.of(A2), noShare, SMALL, BIG);
    assertThat(minShare.state().reservations()).containsOnlyKeys("n1");
    assertThat(placed(minShare)).isEmpty();
  }

  @Test
  void aContainerBelowTheReservationThresholdReservesNothing() {
    // 1024 MB with 4 vcores does not fit n1's <2048 MB, 2 vcores> free; under FAIR only memory is
    // compared with the threshold, and 1024 MB is below 2048: no reservation, and A2's turn on the
    // node ends, so A1 is served. At 2048 MB and 4 vcores A2 reserves n1.
    List<NodeView> nodes = List.of(node("n1", mb(8192, 8), mb(6144, 6)));
    App a1 = new App(A1, "root.a", mb(6144, 6), List.of(Ask.anyOf(mb(1024, 1), 4)));
    App small = new App(A2, "root.b", Resource.NONE, List.of(Ask.anyOf(mb(1024, 4), 1)));
    FairAssigner.Outcome o = pass(nodes, FairPlacing.State.EMPTY, Set.of(), Map.of(), a1, small);
    assertThat(o.state().reservations()).isEmpty();
    assertThat(placed(o)).containsExactly(A1 + "@n1", A1 + "@n1");
    App big = new App(A2, "root.b", Resource.NONE, List.of(Ask.anyOf(mb(2048, 4), 1)));
    assertThat(pass(nodes, FairPlacing.State.EMPTY, Set.of(), Map.of(), a1, big).state().reservations())
        .containsOnlyKeys("n1");
  }

  @Test
  void anApplicationReservesAtMostItsShareOfTheNodesOffItsHostsButEveryHostItNames() {
    // 30 nodes of 8 GB, each with 6 GB used. A2 wants three 4 GB containers anywhere: it may hold
    // ceil(30 x 0.05) = 2 reservations for them. Asked on hosts n10 and n20 instead (node-local),
    // it reserves both of those however many it holds.
    List<NodeView> nodes = new ArrayList<>();
    for (int i = 1; i <= 30; i++) nodes.add(node("n" + i, res(8, 8), res(6, 3)));
    App anywhere = new App(A2, "root.b", Resource.NONE, List.of(Ask.anyOf(res(4, 1), 3)));
    assertThat(pass(nodes, FairPlacing.State.EMPTY, Set.of(), Map.of(), anywhere).state().reservations())
        .containsOnlyKeys("n1", "n2");
    Ask on10 = new Ask(1, "n10", res(4, 1), 1, true, -1, false);
    Ask on20 = new Ask(1, "n20", res(4, 1), 1, true, -1, false);
    Ask strict = new Ask(1, Ask.ANY, res(4, 1), 2, false, -1, false);
    App onHosts = new App(A2, "root.b", Resource.NONE, List.of(on10, on20, strict));
    assertThat(pass(nodes, FairPlacing.State.EMPTY, Set.of(), Map.of(), onHosts).state().reservations())
        .containsOnlyKeys("n10", "n20");
  }

  @Test
  void aReservationWhoseRequestIsGoneIsReleasedAndTheNodeOfferedAsUsual() {
    // A2 reserved n1 for a 4 GB container and then withdrew it: at the next pass the reservation
    // goes, and A1's 1 GB requests take n1's free 2 GB in the same pass.
    FairAssigner.Outcome reserved = pass(ONE_NODE, FairPlacing.State.EMPTY, Set.of(), Map.of(), SMALL, BIG);
    assertThat(reserved.state().reservations()).containsOnlyKeys("n1");
    App withdrawn = new App(A2, "root.b", Resource.NONE, List.of());
    FairAssigner.Outcome next = pass(ONE_NODE, reserved.state(), Set.of(), Map.of(), SMALL, withdrawn);
    assertThat(next.state().reservations()).isEmpty();
    assertThat(placed(next)).containsExactly(A1 + "@n1", A1 + "@n1");
  }

  @Test
  void aReservedNodeWaitsForItsContainerWhileOthersWouldFit() {
    // The reservation stands and n1 keeps its free 2 GB from A1, pass after pass.
    FairPlacing.State state = pass(ONE_NODE, FairPlacing.State.EMPTY, Set.of(), Map.of(), SMALL, BIG).state();
    for (int i = 0; i < 3; i++) {
      FairAssigner.Outcome o = pass(ONE_NODE, state, Set.of(), Map.of(), SMALL, BIG);
      assertThat(o.plan().isEmpty()).isTrue();
      state = o.state();
    }
    assertThat(state.reservations()).containsOnlyKeys("n1");
  }

  @Test
  void preemptionDoesNotCountAReservedNodesFreeSpaceAsRoom() {
    // Two 8 GB nodes. n1: A1 (queue a, which may not be preempted from) holds seven 1 GB
    // containers. n2: A4 (queue d) holds eight. A2 (b) wants 4 GB and A3 (c) 1 GB; every queue's
    // fair share is 4 GB. At the first pass A2, starved, reserves n1 (b comes before c by name),
    // so A3 cannot have n1's free 1 GB. Ten seconds on, A3 is starved for 1 GB and A2 for 4 GB,
    // A3 served first. For A3, n1 comes first, but its free 1 GB is reserved, not room, and
    // nothing there may be taken; so one of A4's containers on n2 is preempted for A3 (A4 keeps
    // 7 GB), and once it is killed, 15 s later, A3 gets n2. For A2 nothing is taken: on n2 A4 may
    // lose only three more containers before it falls to its share. Counting n1's free 1 GB as
    // room instead, preemption would find A3 served by n1 and take nothing for it, take four of
    // A4's containers for A2, and A3 would wait for n1 until A2's reservation went.
    SimulatedCluster cluster = new SimulatedCluster(15_000);
    FairPolicySet policy = SimulatedCluster.policy("""
        preemption { enabled = true, cluster-utilization-threshold = 0.8, wait-before-kill = 15s }
        defaults { fair-share-preemption-timeout = 10s, fair-share-preemption-threshold = 1.0 }
        queues { a { allow-preemption-from = false }, b {}, c {}, d {} }
        """);
    String a3 = "application_1_0003";
    String a4 = "application_1_0004";
    long t0 = 1_000_000;
    cluster.node("n1", res(8, 8)).node("n2", res(8, 8));
    cluster.app(A1, "root.a", t0).app(A2, "root.b", t0, Ask.anyOf(res(4, 1), 1))
        .app(a3, "root.c", t0, Ask.anyOf(res(1, 1), 1)).app(a4, "root.d", t0);
    for (int i = 0; i < 7; i++) cluster.run(A1, "n1", res(1, 1), false, t0 - 1000 + i);
    for (int i = 0; i < 8; i++) cluster.run(a4, "n2", res(1, 1), false, t0 - 1000 + i);
    List<String> preempted = new ArrayList<>();
    List<Assignment> placed = new ArrayList<>();
    for (long t = t0; t <= t0 + 26_000; t += 500) {
      SimulatedCluster.Tick tick = cluster.tick(policy, t);
      preempted.addAll(tick.preempted());
      placed.addAll(tick.placed());
      if (t == t0) assertThat(policy.nodeReservations().get("n1").appId()).isEqualTo(A2);
    }
    assertThat(preempted).hasSize(1).allSatisfy(id -> assertThat(id).startsWith(a4));
    assertThat(placements(placed)).containsExactly(a3 + "@n2");
    assertThat(policy.nodeReservations().get("n1").appId()).isEqualTo(A2);
  }
}
