package dev.bobbin.core.policy.capacity.preemption;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.preemption.QueueTable.Scenario;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The cases of Hadoop 3.4.2's tests of its proportional preemption policy, with their numbers: the
 * same queues, loads and applications give the same containers, and the ideal assignments are the
 * ones Hadoop's policy computes for them. As in those tests a round may take the whole cluster and
 * the natural termination factor is 1 unless a case says otherwise, so a round takes all a leaf
 * gives back. Rows are root first, then the queues depth first (see {@link QueueTable}).
 */
class HadoopPolicyCasesTest {
  static final ProportionalPreemptionSettings WHOLE = ProportionalPreemptionSettings.HADOOP_DEFAULTS
      .withTotalPreemptionPerRound(1.0f).withNaturalTerminationFactor(1.0).withMaxWaitBeforeKill(Duration.ofSeconds(10));

  private static Resource r(long amount) {
    return new Resource(amount, (int) amount);
  }

  private static long ideal(Scenario s, String queue) {
    return s.ideal(WHOLE).queue(queue).idealAssignment().memory();
  }

  /** Three or four queues under the root, each with one application. */
  @Nested
  class FlatQueues {
    private final Scenario idle = QueueTable.of(new int[][] {
        {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {0, 0, 0, 0}, {0, 0, 0, 0},
        {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).build();

    @Test
    void queuesOverTheirGuaranteesKeepWhatNoOneElseAsksFor() {
      // b uses 60 of its 40 and c 40 of its 20, but a asks for nothing: both keep all they use.
      assertThat(idle.select(WHOLE).victims()).isEmpty();
      assertThat(ideal(idle, "root.b")).isEqualTo(60);
      assertThat(ideal(idle, "root.c")).isEqualTo(40);
    }

    @Test
    void theSurplusGoesByGuaranteeToTheQueuesThatAsk() {
      // a (10) uses 30 and asks 20 more, b (40) uses 60 and asks 5, c (20) uses 10 and asks 20, d
      // (30) is idle. Each starts at the smaller of its usage and guarantee (a 10, b 40, c 10); the
      // 40 left go to the asking queues by guarantee, most under-served first: c reaches its 20, a
      // grows to 20 and b to 60 (a leaf takes no more than the larger of its usage and guarantee).
      // a uses 10 more than its ideal: application 0 gives back 10 containers.
      Scenario s = QueueTable.of(new int[][] {
          {100, 10, 40, 20, 30}, {100, 100, 100, 100, 100}, {100, 30, 60, 10, 0}, {45, 20, 5, 20, 0},
          {0, 0, 0, 0, 0}, {3, 1, 1, 1, 0}, {-1, 1, 1, 1, 1}, {4, 0, 0, 0, 0}}).build();
      assertThat(ideal(s, "root.a")).isEqualTo(20);
      assertThat(ideal(s, "root.b")).isEqualTo(60);
      assertThat(ideal(s, "root.c")).isEqualTo(20);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(10);
    }

    @Test
    void aQueueAtItsMaximumCannotBeGivenMore() {
      // a (40) uses 55 and b (40) uses 45, its maximum; both ask 10. b cannot take more, and a is
      // not taken from for it.
      Scenario s = QueueTable.of(new int[][] {
          {100, 40, 40, 20}, {100, 100, 45, 100}, {100, 55, 45, 0}, {20, 10, 10, 0}, {0, 0, 0, 0},
          {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}}).build();
      assertThat(ideal(s, "root.b")).isEqualTo(45);
      assertThat(s.taken(WHOLE, 0)).isZero();
    }

    @Test
    void allOfAnEmptyQueuesDemandIsTakenFromTheOthers() {
      // a (40) uses nothing and asks 10; b (40) uses 60 and c (20) uses 40. a is served first and
      // takes its 10; the 30 left go back to b and c by guarantee, 20 and 10: b keeps its 60, c's
      // ideal assignment is 30, and c gives 10.
      Scenario s = QueueTable.of(new int[][] {
          {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 0, 60, 40}, {10, 10, 0, 0}, {0, 0, 0, 0},
          {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).build();
      assertThat(ideal(s, "root.c")).isEqualTo(30);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(10);
    }

    @Test
    void usageWithinTheDeadZoneIsLeftAlone() {
      // b (40) uses 43 and c (20) uses 21; a asks 10. Their ideal assignments are 41 and 20, but
      // neither uses more than its guarantee times 1.1 (44 and 22), so nothing is taken.
      Scenario s = QueueTable.of(new int[][] {
          {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 39, 43, 21}, {10, 10, 0, 0}, {0, 0, 0, 0},
          {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).build();
      IdealAssignment ideal = s.ideal(WHOLE);
      assertThat(ideal.queue("root.b").toBePreempted()).isEqualTo(r(2));
      assertThat(ideal.queue("root.b").toObtain()).isEqualTo(Resource.NONE);
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }

    @Test
    void queuesOverTheirGuaranteesTakeNothingFromEachOther() {
      // a (40) uses 55 and b (40) uses 45; both ask 10 and c is idle. A queue at or over its
      // guarantee is offered no more than the larger of its usage and guarantee, so each keeps
      // what it has.
      Scenario s = QueueTable.of(new int[][] {
          {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 55, 45, 0}, {20, 10, 10, 0}, {0, 0, 0, 0},
          {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}}).build();
      assertThat(ideal(s, "root.a")).isEqualTo(55);
      assertThat(s.select(WHOLE).victims()).isEmpty();
      // Likewise with a natural termination factor of 0.1.
      assertThat(s.select(WHOLE.withNaturalTerminationFactor(0.1)).victims()).isEmpty();
    }

    @Test
    void reservationsAreNotDemandTheReservingQueueCanTakeFromOthersFor() {
      // a (40) uses 70, asks 30 and holds reservations of 50: its asks beyond the reservations are
      // none, so no one gives anything for it.
      Scenario s = QueueTable.of(new int[][] {
          {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 70, 0, 0}, {10, 30, 0, 0}, {0, 50, 0, 0},
          {1, 1, 0, 0}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).build();
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }
  }

  @Nested
  class RoundAllowance {
    /**
     * b and c (40 each) use 48 in containers of 6; a (20) asks 30. a's ideal assignment is 18, b's
     * and c's 41; together they would give back 14, more than the round's 10, so each is to give 7
     * times 10/14 = 5 (in single precision, a hair above). The leaf visited first gives a container
     * of 6; the 4 left of the allowance fit none of the other's.
     */
    private QueueTable table() {
      return QueueTable.of(new int[][] {
          {100, 20, 40, 40}, {100, 100, 100, 100}, {96, 0, 48, 48}, {30, 30, 0, 0}, {0, 0, 0, 0},
          {3, 1, 1, 1}, {-1, 6, 6, 6}, {3, 0, 0, 0}});
    }

    private final ProportionalPreemptionSettings tenPercent = WHOLE.withTotalPreemptionPerRound(0.1f);

    @Test
    void leavesAreVisitedInHadoopsOrderSoTheSameLeafGivesAsInHadoop() {
      // Hadoop visits root.queueC before root.queueB (the order of its hash set of their paths).
      Scenario s = table().hadoopQueueNames().build();
      assertThat(s.ideal(tenPercent).queue("root.queueB").toObtain().memory()).isEqualTo(5);
      assertThat(s.taken(tenPercent, 2)).isEqualTo(1);
      assertThat(s.taken(tenPercent, 1)).isZero();
      assertThat(s.select(tenPercent).allowanceLeft().memory()).isEqualTo(4);
    }

    @Test
    void withOtherNamesAnotherLeafComesFirst() {
      // root.b comes before root.c.
      Scenario s = table().build();
      assertThat(s.taken(tenPercent, 1)).isEqualTo(1);
      assertThat(s.taken(tenPercent, 2)).isZero();
    }
  }

  /** {@code disable_preemption} on a queue, inherited by its descendants. */
  @Nested
  class DisabledPreemption {
    private final QueueTable flat = QueueTable.of(new int[][] {
        {100, 55, 25, 20}, {100, 100, 100, 100}, {100, 0, 54, 46}, {10, 10, 0, 0}, {0, 0, 0, 0},
        {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}});

    @Test
    void aDisabledQueueKeepsItsExcessAndTheOthersGive() {
      // a (55) asks 10. With b (25, using 54) disabled its 29 above the guarantee are untouchable:
      // b's ideal assignment stays 54 and c (20, using 46) gives all 10.
      Scenario s = flat.disablePreemption("root.b").build();
      assertThat(s.ideal(WHOLE).queue("root.b").untouchableExtra()).isEqualTo(r(29));
      assertThat(s.taken(WHOLE, 1)).isZero();
      assertThat(s.taken(WHOLE, 2)).isEqualTo(10);
    }

    @Test
    void withPreemptionOnBothGiveByTheirGuarantees() {
      Scenario s = QueueTable.of(new int[][] {
          {100, 55, 25, 20}, {100, 100, 100, 100}, {100, 0, 54, 46}, {10, 10, 0, 0}, {0, 0, 0, 0},
          {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).build();
      assertThat(s.taken(WHOLE, 1)).isEqualTo(4);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(6);
    }

    private QueueTable twoParents() {
      // a (100) has b (50, using 60) and c (50, using 50); d (100) has e (10, using 90) and f (90,
      // idle, asking 10).
      return QueueTable.of(new int[][] {
          {200, 100, 50, 50, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200}, {200, 110, 60, 50, 90, 90, 0},
          {10, 0, 0, 0, 10, 0, 10}, {0, 0, 0, 0, 0, 0, 0}, {4, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1},
          {2, 2, 0, 0, 2, 0, 0}});
    }

    @Test
    void theOverServedParentGivesBeforeTheChildFarOverItsGuarantee() {
      // d is under its guarantee, so e keeps what d is given; a is 10 over, and b gives 10.
      Scenario s = twoParents().build();
      assertThat(s.taken(WHOLE, 0)).isEqualTo(10);
      assertThat(s.taken(WHOLE, 2)).isZero();
    }

    @Test
    void withTheOverServedChildDisabledItsParentsExcessIsUntouchableToo() {
      // b's 10 above its guarantee cannot be taken, so neither can a's: e gives 10 instead.
      Scenario s = twoParents().disablePreemption("root.a.b").build();
      assertThat(s.ideal(WHOLE).queue("root.a").untouchableExtra()).isEqualTo(r(10));
      assertThat(s.taken(WHOLE, 0)).isZero();
      assertThat(s.taken(WHOLE, 2)).isEqualTo(10);
    }

    private QueueTable threeParents() {
      // a (350): b (150, using 200), c (200, using 200); d (400): e (200, using 250), f (200, using
      // 150, asking 50); g (250): h (100, using 150), i (150, using 50).
      return QueueTable.of(new int[][] {
          {1000, 350, 150, 200, 400, 200, 200, 250, 100, 150},
          {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
          {1000, 400, 200, 200, 400, 250, 150, 200, 150, 50}, {50, 0, 0, 0, 50, 0, 50, 0, 0, 0},
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {6, 2, 1, 1, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
          {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}});
    }

    @Test
    void theDemandOfFComesFromItsSiblingAndFromTheOverServedParentElsewhere() {
      // d is at its guarantee and g under it, a 50 over: f's 50 come from e (23) and b (27).
      Scenario s = threeParents().build();
      assertThat(ideal(s, "root.a")).isEqualTo(373);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(27);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(23);
    }

    @Test
    void withBDisabledAllComesFromE() {
      Scenario s = threeParents().disablePreemption("root.a.b").build();
      assertThat(s.taken(WHOLE, 0)).isZero();
      assertThat(s.taken(WHOLE, 2)).isEqualTo(50);
    }

    @Test
    void withBAndEDisabledTheDemandWaitsEvenThoughHIsOverItsGuarantee() {
      // h is 50 over its guarantee, but g is not over its own: nothing is taken from h.
      Scenario s = threeParents().disablePreemption("root.a.b").disablePreemption("root.d.e").build();
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }

    private QueueTable inheritance() {
      // a (500): b (200, idle), c (200, using 350), d (100, using 350); e (500): f (200, idle,
      // asking 200), g (200, using 200), h (100, using 100).
      return QueueTable.of(new int[][] {
          {1000, 500, 200, 200, 100, 500, 200, 200, 100}, {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
          {1000, 700, 0, 350, 350, 300, 0, 200, 100}, {200, 0, 0, 0, 0, 200, 200, 0, 0},
          {0, 0, 0, 0, 0, 0, 0, 0, 0}, {5, 2, 0, 1, 1, 3, 1, 1, 1}, {-1, -1, 1, 1, 1, -1, 1, 1, 1},
          {2, 3, 0, 0, 0, 3, 0, 0, 0}});
    }

    @Test
    void theChildFurtherOverItsGuaranteeGivesMore() {
      // a keeps its 500, shared by c and d by guarantee: c 333 and d 167. c gives 17, d 183.
      Scenario s = inheritance().build();
      assertThat(ideal(s, "root.a.c")).isEqualTo(333);
      assertThat(ideal(s, "root.a.d")).isEqualTo(167);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(17);
      assertThat(s.taken(WHOLE, 1)).isEqualTo(183);
    }

    @Test
    void disablingAParentDisablesItsChildren() {
      Scenario s = inheritance().disablePreemption("root.a").build();
      assertThat(s.tree().spec("root.a.d").disablePreemption()).isTrue();
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }

    @Test
    void aPreemptableSiblingGivesWhenTheOtherIsUntouchable() {
      // a (1000): b (800, using 300), c (100, using 800, disabled), d (100, using 200); e asks 300
      // for g. c's 700 over its guarantee are untouchable, so a's ideal stays 1200 and d gives 100.
      Scenario s = QueueTable.of(new int[][] {
          {2000, 1000, 800, 100, 100, 1000, 500, 300, 200}, {2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000},
          {2000, 1300, 300, 800, 200, 700, 500, 0, 200}, {300, 0, 0, 0, 0, 300, 0, 300, 0},
          {0, 0, 0, 0, 0, 0, 0, 0, 0}, {6, 3, 1, 1, 1, 3, 1, 1, 1}, {-1, -1, 1, 1, 1, -1, 1, 1, 1},
          {2, 3, 0, 0, 0, 3, 0, 0, 0}}).disablePreemption("root.a.c").build();
      assertThat(ideal(s, "root.a")).isEqualTo(1200);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(100);
    }

    @Test
    void disablingTheRootDisablesEveryQueue() {
      Scenario s = QueueTable.of(new int[][] {
          {1000, 500, 250, 250, 250, 100, 150, 250, 100, 150},
          {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000},
          {1000, 20, 0, 20, 490, 240, 250, 490, 240, 250}, {200, 200, 200, 0, 0, 0, 0, 0, 0, 0},
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {6, 2, 1, 1, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
          {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}}).disablePreemption("root").build();
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }

    @Test
    void aDisabledQueueAboveItsMaximumKeepsWhatItUses() {
      // e (17, at most 109) uses 110 under d (disabled, at most 550): nothing is taken from it.
      Scenario s = QueueTable.of(new int[][] {
          {1000, 725, 360, 365, 275, 17, 258}, {1000, 1000, 1000, 1000, 550, 109, 1000},
          {1000, 741, 396, 345, 259, 110, 149}, {40, 20, 0, 20, 20, 20, 0}, {0, 0, 0, 0, 0, 0, 0},
          {4, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1}, {2, 2, 0, 0, 2, 0, 0}}).disablePreemption("root.d").build();
      assertThat(ideal(s, "root.d.e")).isEqualTo(110);
      assertThat(s.taken(WHOLE, 2)).isZero();
    }
  }

  @Nested
  class Hierarchies {
    @Test
    void reservationsOfTheGivingQueueGoFirst() {
      // The two-parent tree with reservations: b gives its 10 as reservations (it holds 15).
      Scenario s = QueueTable.of(new int[][] {
          {200, 100, 50, 50, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200}, {200, 110, 60, 50, 90, 90, 0},
          {10, 0, 0, 0, 10, 0, 10}, {40, 25, 15, 10, 15, 15, 0}, {4, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1},
          {2, 2, 0, 0, 2, 0, 0}}).build();
      VictimSelection.Selection selection = s.select(WHOLE);
      assertThat(QueueTable.Scenario.taken(selection, 0)).isEqualTo(10);
      assertThat(selection.victims()).allMatch(v -> v.kind() == Victim.Kind.RESERVATION);
      assertThat(selection.reservationsLookedAt()).hasSize(10);
    }

    @Test
    void aChildGuaranteedNothingIsTakenFromLast() {
      // a (100): b (0, using 60), c (99, using 20); d (100): e (10, using 90), f (90, asking 10).
      // a is under its guarantee, so nothing is taken from b, though it uses 60 of nothing.
      Scenario s = QueueTable.of(new int[][] {
          {200, 100, 0, 99, 100, 10, 90}, {200, 200, 200, 200, 200, 200, 200}, {170, 80, 60, 20, 90, 90, 0},
          {10, 0, 0, 0, 10, 0, 10}, {0, 0, 0, 0, 0, 0, 0}, {4, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1},
          {2, 2, 0, 0, 2, 0, 0}}).build();
      assertThat(s.taken(WHOLE, 0)).isZero();
    }

    @Test
    void queuesGuaranteedNothingTakeNothingFromEachOther() {
      // a (100): b (0, using 60), c (100, using 20), d (0, using 90); e (100): f (100); all ask.
      Scenario s = QueueTable.of(new int[][] {
          {200, 100, 0, 100, 0, 100, 100}, {200, 200, 200, 200, 200, 200, 200}, {170, 170, 60, 20, 90, 0, 0},
          {85, 50, 30, 10, 10, 20, 20}, {0, 0, 0, 0, 0, 0, 0}, {4, 3, 1, 1, 1, 1, 1}, {-1, -1, 1, 1, 1, -1, 1},
          {2, 3, 0, 0, 0, 1, 0}}).build();
      assertThat(ideal(s, "root.a.b")).isEqualTo(60);
      assertThat(ideal(s, "root.a.d")).isEqualTo(90);
      assertThat(s.select(WHOLE).victims()).isEmpty();
    }

    @Test
    void inALargerTreeTheDemandIsSharedByTheOverServedLeaves() {
      // i (90) under g (100) asks 15. h (10) uses 90 under g, and a is 10 over its guarantee: b
      // gives 9 and h 6 (the amounts are rounded as Hadoop rounds them).
      Scenario s = QueueTable.of(new int[][] {
          {400, 200, 60, 140, 100, 70, 30, 100, 10, 90}, {400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
          {400, 210, 70, 140, 100, 50, 50, 90, 90, 0}, {15, 0, 0, 0, 0, 0, 0, 0, 0, 15},
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {6, 2, 1, 1, 2, 1, 1, 2, 1, 1}, {-1, -1, 1, 1, -1, 1, 1, -1, 1, 1},
          {3, 2, 0, 0, 2, 0, 0, 2, 0, 0}}).build();
      assertThat(ideal(s, "root.a")).isEqualTo(201);
      assertThat(ideal(s, "root.g.h")).isEqualTo(84);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(9);
      assertThat(s.taken(WHOLE, 4)).isEqualTo(6);
    }

    @Test
    void aGrandchildOverItsGuaranteeGivesWhatItsGrandparentHasAbove() {
      // a (200): b (60, using 60), c (140, using 150): d (100, using 100), e (40, using 50); k
      // under i asks 10. e can give 10, a only 9: e gives 9.
      Scenario s = QueueTable.of(new int[][] {
          {400, 200, 60, 140, 100, 40, 100, 70, 30, 100, 10, 90},
          {400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400, 400},
          {400, 210, 60, 150, 100, 50, 100, 50, 50, 90, 10, 80}, {10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10},
          {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {7, 3, 1, 2, 1, 1, 2, 1, 1, 2, 1, 1},
          {-1, -1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1}, {3, 2, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0}}).build();
      IdealAssignment ideal = s.ideal(WHOLE);
      assertThat(ideal.queue("root.a.c.e").preemptableExtra()).isEqualTo(r(10));
      assertThat(ideal.queue("root.a").untouchableExtra()).isEqualTo(Resource.NONE);
      assertThat(ideal.queue("root.a").preemptableExtra()).isEqualTo(r(10));
      assertThat(s.taken(WHOLE, 2)).isEqualTo(9);
    }
  }

  /** Each application's first container is its AM container. */
  @Nested
  class AmContainers {
    @Test
    void amContainersAreSkippedWhileOthersSuffice() {
      // a (50) uses 100 in 4 applications of 25 containers; b asks 50. The newest applications
      // give their 24 other containers each, application 1 gives the last 2; no AM is taken.
      Scenario s = QueueTable.of(new int[][] {
          {100, 50, 50}, {100, 100, 100}, {100, 100, 0}, {70, 20, 50}, {0, 0, 0}, {5, 4, 1}, {-1, 1, 1},
          {2, 0, 0}}).withAmContainers().build();
      assertThat(s.taken(WHOLE, 3)).isEqualTo(24);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(24);
      assertThat(s.taken(WHOLE, 1)).isEqualTo(2);
      assertThat(s.select(WHOLE).victims()).noneMatch(v -> v.kind() == Victim.Kind.AM_CONTAINER);
    }

    private QueueTable fourAppsOfFive() {
      // a (10) uses 100 in 4 applications of 5 containers of 5; b asks 90.
      return QueueTable.of(new int[][] {
          {100, 10, 90}, {100, 100, 100}, {100, 100, 0}, {70, 20, 90}, {0, 0, 0}, {5, 4, 1}, {-1, 5, 5},
          {2, 0, 0}}).withAmContainers();
    }

    @Test
    void amContainersAreTakenLastWhenTheOthersDoNotSuffice() {
      // The 16 other containers give 80; the AM containers of the newest applications (3, then 2)
      // give the last 10, while the AM containers set aside hold more than the leaf's AM share (0).
      Scenario s = fourAppsOfFive().build();
      assertThat(s.taken(WHOLE, 3)).isEqualTo(5);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(5);
      assertThat(s.taken(WHOLE, 1)).isEqualTo(4);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(4);
    }

    @Test
    void amContainersWithinTheLeafsAmShareAreKept() {
      // With maximum-am-resource-percent 0.5 the AM share is 5 of a's guarantee of 10: the AMs set
      // aside hold 20, then 15 and 10 after two are taken, still above 5, so the same two go.
      Scenario s = fourAppsOfFive().amPercent(0.5f).build();
      assertThat(s.taken(WHOLE, 3)).isEqualTo(5);
      assertThat(s.taken(WHOLE, 2)).isEqualTo(5);
      assertThat(s.taken(WHOLE, 1)).isEqualTo(4);
      assertThat(s.taken(WHOLE, 0)).isEqualTo(4);
    }
  }

  @Test
  void withTheDominantCalculatorContainersAreCountedByTheirDominantShare() {
    // a (50:50) uses 10 memory and 100 vcores in containers of 1:10 and asks 70:20; b (50:50) asks
    // 10:100. a is at twice its guarantee in vcores and gives 4 containers.
    Scenario s = QueueTable.of(new String[] {"100:100", "50:50", "50:50"}, new int[] {100, 100, 100},
        new String[] {"10:100", "10:100", "0"}, new String[] {"70:20", "70:20", "10:100"},
        new String[] {"0", "0", "0"}, new int[] {5, 1, 1}, new String[] {"-1", "1:10", "1:10"},
        new int[] {2, 0, 0}).build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(4);
  }

  @Test
  void anApplicationsContainersGoLeastImportantRequestFirstThenNewestFirst() {
    String attempt = dev.bobbin.protocol.Ids.attemptId(QueueTable.appId(10), 1);
    CandidateContainer c5 = container(attempt, 5, 3);
    CandidateContainer c3 = container(attempt, 3, 3);
    CandidateContainer c2 = container(attempt, 2, 2);
    CandidateContainer c1 = container(attempt, 1, 2);
    CandidateContainer c4 = container(attempt, 4, 1);
    assertThat(VictimOrder.containers(java.util.List.of(c2, c3, c5, c4, c1))).containsExactly(c5, c3, c2, c1, c4);
  }

  private static CandidateContainer container(String attempt, long sequence, int priority) {
    String id = dev.bobbin.protocol.Ids.containerId(attempt, 0, sequence);
    return new CandidateContainer(new dev.bobbin.core.policy.ContainerSnapshot(id, "app", "n1:1", r(1), false, 0),
        priority, 0);
  }

  @Test
  void observeOnlyComputesTheRoundAndTouchesNothing() {
    // a (40) uses 90; b asks 20 and c 50. a would give 40, but nothing is marked.
    Scenario s = QueueTable.of(new int[][] {
        {100, 40, 40, 20}, {100, 100, 100, 100}, {100, 90, 10, 0}, {80, 10, 20, 50}, {0, 0, 0, 0},
        {2, 1, 1, 0}, {-1, 1, 1, 0}, {3, 0, 0, 0}}).build();
    PreemptionRound.Result round = s.round(WHOLE.withObserveOnly(true), Map.of("gone", 5L), 0);
    assertThat(round.ideal().queue("root.a").toObtain().memory()).isEqualTo(40);
    assertThat(round.selection().victims()).hasSize(40);
    assertThat(round.toMark()).isEmpty();
    assertThat(round.toKill()).isEmpty();
    assertThat(round.marks()).containsExactly(Map.entry("gone", 5L));
  }
}
