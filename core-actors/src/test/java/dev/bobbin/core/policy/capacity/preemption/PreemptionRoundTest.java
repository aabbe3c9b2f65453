package dev.bobbin.core.policy.capacity.preemption;

import static dev.bobbin.core.policy.capacity.preemption.HadoopPolicyCasesTest.WHOLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacitySettings;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.core.policy.capacity.UserLimits;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Rounds one after another: when a container is marked, killed, or its mark forgotten, as Hadoop's
 * policy keeps them; and what a round reads of users and reservations. Queues a (40 %), b (40 %)
 * and c (20 %) share 100 GB; a round may take everything, the wait before a kill is 10 s.
 */
class PreemptionRoundTest {
  private static final Resource CLUSTER = new Resource(100 * 1024, 100);

  private static CapacityTree tree(CapacityQueueSpec.Builder a) {
    CapacityQueueSpec root = CapacityQueueSpec.builder("root")
        .child(a.build())
        .child(CapacityQueueSpec.builder("root.b").capacity(40).build())
        .child(CapacityQueueSpec.builder("root.c").capacity(20).build())
        .build();
    return CapacityTree.compute(root, CLUSTER, CapacitySettings.defaults(ResourceMath.DEFAULT));
  }

  private static final CapacityTree TREE = tree(CapacityQueueSpec.builder("root.a").capacity(40));

  /** a is idle and asks 10 GB; b uses 60 GB, c 40 GB: c, 20 GB over, gives a its 10. */
  private static final Workload BUSY = Workload.empty()
      .app(0, "root.a", 0, false, 10).app(1, "root.b", 60, false, 0).app(2, "root.c", 40, false, 0);

  private static PreemptionRound.Result round(Workload w, Map<String, Long> marks, long now) {
    return PreemptionRound.run(w.input(TREE), WHOLE, marks, now);
  }

  private static List<String> ids(List<Victim> victims) {
    return victims.stream().map(Victim::id).toList();
  }

  @Nested
  class MarksAndKills {
    @Test
    void aContainerIsMarkedThenKilledWhenChosenAgainAfterTheWait() {
      PreemptionRound.Result first = round(BUSY, Map.of(), 0);
      assertThat(first.toMark()).hasSize(10).allMatch(v -> v.appId().equals(Workload.appId(2)));
      assertThat(first.marks()).hasSize(10).containsValue(0L);

      // Halfway through the wait: the same ten are chosen; their AMs were told already.
      PreemptionRound.Result halfway = round(BUSY, first.marks(), 5_000);
      assertThat(halfway.toMark()).isEmpty();
      assertThat(halfway.toKill()).isEmpty();
      assertThat(ids(halfway.waiting())).isEqualTo(ids(first.toMark()));

      // The wait is over: they are killed and their marks go.
      PreemptionRound.Result due = round(BUSY, halfway.marks(), 10_000);
      assertThat(ids(due.toKill())).isEqualTo(ids(first.toMark()));
      assertThat(due.marks()).isEmpty();
    }

    @Test
    void aContainerNoLongerChosenIsNotKilledAndItsMarkIsKeptForTwiceTheWait() {
      PreemptionRound.Result first = round(BUSY, Map.of(), 0);
      Workload satisfied = BUSY.ask(0, -10);

      // a asks for nothing any more: nothing is chosen, nothing killed, the marks stay.
      PreemptionRound.Result quiet = round(satisfied, first.marks(), 12_000);
      assertThat(quiet.selection().victims()).isEmpty();
      assertThat(quiet.toKill()).isEmpty();
      assertThat(quiet.marks()).isEqualTo(first.marks());

      // a asks again within twice the wait: the containers chosen again were marked long enough ago.
      PreemptionRound.Result again = round(BUSY, quiet.marks(), 15_000);
      assertThat(ids(again.toKill())).isEqualTo(ids(first.toMark()));
    }

    @Test
    void aMarkOlderThanTwiceTheWaitIsForgottenAndTheContainerMarkedAfresh() {
      PreemptionRound.Result first = round(BUSY, Map.of(), 0);
      PreemptionRound.Result quiet = round(BUSY.ask(0, -10), first.marks(), 20_001);
      assertThat(quiet.marks()).isEmpty();

      PreemptionRound.Result again = round(BUSY, quiet.marks(), 25_000);
      assertThat(again.toKill()).isEmpty();
      assertThat(ids(again.toMark())).isEqualTo(ids(first.toMark()));
      assertThat(again.marks()).containsValue(25_000L);
    }

    @Test
    void marksOfContainersThatEndedAreDropped() {
      PreemptionRound.Result first = round(BUSY, Map.of(), 0);
      Workload ended = BUSY.without(ids(first.toMark())).grant(0, 10);
      PreemptionRound.Result next = round(ended, first.marks(), 5_000);
      assertThat(next.selection().victims()).isEmpty();
      assertThat(next.marks()).isEmpty();
    }
  }

  @Test
  void receiptsNameTheQueueFreedForAndGiveEveryContainerItsReason() {
    PreemptionRound.Result first = round(BUSY, Map.of(), 0);
    List<Preemption> receipts = first.receipts();
    assertThat(receipts).allSatisfy(p -> {
      assertThat(p.kind()).isEqualTo(PreemptionRound.KIND);
      assertThat(p.starvedQueue()).isEqualTo("root.a");
      assertThat(p.starvedAppId()).isNull();
      assertThat(p.victims()).allSatisfy(v -> assertThat(v.containerIds()).hasSize(1));
    });
    assertThat(receipts.stream().map(Preemption::nodeId).distinct().count()).isEqualTo(receipts.size());
    List<Preemption.Victim> victims = receipts.stream().flatMap(p -> p.victims().stream()).toList();
    assertThat(victims).hasSize(10);
    // c: guaranteed 20 GB, uses 40 GB, ideal assignment 30 GB, gives back 10 GB.
    assertThat(victims.get(0).reason()).contains("from root.c, guaranteed <memory:20480>, using <memory:40960>",
        "ideal assignment of <memory:30720>", "gives back <memory:10240>", "freed for root.a (using <memory:0>");
    assertThat(first.ideal().queue("root.c").reason()).contains("ideal assignment <memory:30720>");
  }

  @Nested
  class WhatARoundReads {
    @Test
    void reservationsAreCancelledAtOnceAndNotMarked() {
      // Hadoop's tree with reservations: b gives its 10 as reservations, all cancelled.
      QueueTable.Scenario s = QueueTable.of(new int[][] {
          {200, 100, 50, 50, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200}, {200, 110, 60, 50, 90, 90, 0},
          {10, 0, 0, 0, 10, 0, 10}, {40, 25, 15, 10, 15, 15, 0}, {4, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1},
          {2, 2, 0, 0, 2, 0, 0}}).build();
      PreemptionRound.Result round = s.round(WHOLE, Map.of(), 0);
      assertThat(round.reservationsToCancel()).hasSize(10);
      assertThat(round.toMark()).isEmpty();
      assertThat(round.marks()).isEmpty();
      assertThat(s.round(WHOLE.withObserveOnly(true), Map.of(), 0).reservationsToCancel()).isEmpty();
    }

    @Test
    void aUsersDemandCountsOnlyUpToWhatItsUserLimitLeaves() {
      // a (40 GB) with user-limit-factor 0.625 holds its user to 25 GB. The user uses 20 GB and
      // asks 30 more, but only 5 count: b, using 80 GB, gives 5 rather than 20.
      CapacityTree tree = tree(CapacityQueueSpec.builder("root.a").capacity(40).userLimitFactor(0.625f));
      Workload w = Workload.empty().app(0, "root.a", 20, false, 30).app(1, "root.b", 80, false, 0);
      UserLimits.Result limits = UserLimits.compute(tree, "root.a",
          UserLimits.usersOf("root.a", w.snapshots(), Map.of(Workload.appId(0), "ann"), Set.of(Workload.appId(0))),
          UserLimits.Mode.ACTIVE_USERS);
      UserHeadroom headroom = UserHeadroom.from(tree, Map.of("root.a", limits));
      assertThat(headroom.of("root.a", "ann")).isEqualTo(new Resource(5 * 1024, 0));
      assertThat(headroom.of("root.b", "ann")).isNull();

      PreemptionRound.Input limited = new PreemptionRound.Input(tree, w.snapshots(), w.containers(), List.of(),
          Map.of(Workload.appId(0), "ann"), headroom);
      PreemptionRound.Result round = PreemptionRound.run(limited, WHOLE, Map.of(), 0);
      assertThat(round.ideal().queue("root.a").pending().memory()).isEqualTo(5 * 1024);
      assertThat(round.toMark()).hasSize(5);

      PreemptionRound.Result unlimited = PreemptionRound.run(w.input(tree), WHOLE, Map.of(), 0);
      assertThat(unlimited.toMark()).hasSize(20);
    }
  }
}
