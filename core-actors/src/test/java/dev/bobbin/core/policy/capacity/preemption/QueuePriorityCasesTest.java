package dev.bobbin.core.policy.capacity.preemption;

import static dev.bobbin.core.policy.capacity.preemption.HadoopPolicyCasesTest.WHOLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.preemption.QueueTable.Scenario;
import org.junit.jupiter.api.Test;

/**
 * Hadoop 3.4.2's cases of preemption between queues of different priorities (parents ordering
 * their children by priority and utilization), with their numbers. Each application's first
 * container is its AM, and the leaves' AM share is 0, as in those tests.
 */
class QueuePriorityCasesTest {
  /** a (30) uses 40, b (30) uses 59, c (40) uses 1 and asks 25; all three ask more. */
  private static QueueTable threeQueues() {
    return QueueTable.of(new int[][] {
        {100, 30, 30, 40}, {100, 100, 100, 100}, {100, 40, 59, 1}, {100, 50, 50, 25}, {0, 0, 0, 0},
        {3, 1, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).withAmContainers();
  }

  @Test
  void anUnderServedQueueOfHigherPriorityTakesFromTheOthersDownToTheirGuarantees() {
    // c (priority 2) is served first; a (1) gives 10 down to its guarantee, b (2) 15.
    Scenario s = threeQueues().priority("root.a", 1).priority("root.b", 2).priority("root.c", 2).build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(10);
    assertThat(s.taken(WHOLE, 1)).isEqualTo(15);
    assertThat(s.taken(WHOLE, 2)).isZero();
  }

  @Test
  void anUnderServedQueueIsServedFirstWhateverItsPriority() {
    // c now has the lowest priority (0), but it is the one under its guarantee.
    Scenario s = threeQueues().priority("root.a", 1).priority("root.b", 2).priority("root.c", 0).build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(10);
    assertThat(s.taken(WHOLE, 1)).isEqualTo(15);
    assertThat(s.taken(WHOLE, 2)).isZero();
  }

  @Test
  void satisfiedQueuesTakeNothingFromEachOtherWhateverTheirPriorities() {
    // a (1) is idle; b (1) uses 40 of 30, c (2) 60 of 40, both ask more.
    Scenario s = QueueTable.of(new int[][] {
        {100, 30, 30, 40}, {100, 100, 100, 100}, {100, 0, 40, 60}, {75, 0, 50, 25}, {0, 0, 0, 0},
        {2, 0, 1, 1}, {-1, 1, 1, 1}, {3, 0, 0, 0}}).withAmContainers()
        .priority("root.a", 1).priority("root.b", 1).priority("root.c", 2).build();
    assertThat(s.select(WHOLE).victims()).isEmpty();
  }

  /** a (10, priority 1) uses 35, b (15, 1) 25, c (20, 2) 39, d (25, 2) is idle, e (30, 2) asks 99. */
  private static QueueTable fiveQueues() {
    return QueueTable.of(new int[][] {
        {100, 10, 15, 20, 25, 30}, {100, 100, 100, 100, 100, 100}, {100, 35, 25, 39, 0, 1},
        {100, 50, 50, 50, 0, 99}, {0, 0, 0, 0, 0, 0}, {4, 1, 1, 1, 0, 1}, {-1, 1, 1, 1, 1, 1},
        {5, 0, 0, 0, 0, 0}}).withAmContainers()
        .priority("root.a", 1).priority("root.b", 1).priority("root.c", 2).priority("root.d", 2).priority("root.e", 2);
  }

  @Test
  void queuesOfTheSamePriorityGiveByTheRatioOfTheirCapacities() {
    // The lower-priority a and b give: a 23 (to 12) and b 6 (to 19), close to their 10:15.
    Scenario s = fiveQueues().build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(23);
    assertThat(s.taken(WHOLE, 1)).isEqualTo(6);
    assertThat(s.taken(WHOLE, 2)).isZero();
    assertThat(s.taken(WHOLE, 3)).isZero();
  }

  @Test
  void aDisabledQueueGivesNothingWhateverItsPriority() {
    // With a disabled, b gives 9 and the higher-priority c 19.
    Scenario s = fiveQueues().disablePreemption("root.a").build();
    assertThat(s.taken(WHOLE, 0)).isZero();
    assertThat(s.taken(WHOLE, 1)).isEqualTo(9);
    assertThat(s.taken(WHOLE, 2)).isEqualTo(19);
    assertThat(s.taken(WHOLE, 3)).isZero();
  }

  @Test
  void prioritiesCountAmongSiblingsAtEveryLevel() {
    // a (29): a1 (12, using 20), a2 (17, using 20); b (31): b1 (16, using 30), b2 (15, priority 2,
    // using 29); c (40) uses 1 and asks 30. a and b share what c takes; within b, b2's priority
    // keeps more of its excess than b1: a1 6, a2 1, b1 13, b2 10.
    Scenario s = QueueTable.of(new int[][] {
        {100, 29, 12, 17, 31, 16, 15, 40}, {100, 100, 100, 100, 100, 100, 100, 100},
        {100, 40, 20, 20, 59, 30, 29, 1}, {100, 50, 50, 50, 50, 50, 50, 30}, {0, 0, 0, 0, 0, 0, 0, 0},
        {5, 2, 1, 1, 2, 1, 1, 1}, {-1, -1, 1, 1, -1, 1, 1, 1}, {3, 2, 0, 0, 2, 0, 0, 0}}).withAmContainers()
        .priority("root.a", 1).priority("root.a.b", 1).priority("root.a.c", 1).priority("root.d", 1)
        .priority("root.d.e", 1).priority("root.d.f", 2).priority("root.g", 1).build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(6);
    assertThat(s.taken(WHOLE, 1)).isEqualTo(1);
    assertThat(s.taken(WHOLE, 2)).isEqualTo(13);
    assertThat(s.taken(WHOLE, 3)).isEqualTo(10);
  }

  @Test
  void withTheDominantCalculatorTheLowerPriorityChildGives() {
    // On 100:200: a (50:100) has a1 (10:20, using 10:30) and a2 (40:80, using 10:10, asking 30:80);
    // b (50:100) has b1 (20:40, priority 2) and b2 (30:60, using 60:120). a2 is under-served: b2
    // gives 2 containers of 20:40, and a1, over its guarantee in vcores, 3 of 1:4.
    Scenario s = QueueTable.of(new String[] {"100:200", "50:100", "10:20", "40:80", "50:100", "20:40", "30:60"},
        new int[] {100, 100, 100, 100, 100, 100, 100},
        new String[] {"100:200", "20:40", "10:30", "10:10", "80:160", "20:40", "60:120"},
        new String[] {"100:200", "60:100", "30:20", "30:80", "40:100", "20:70", "20:30"},
        new String[] {"0", "0", "0", "0", "0", "0", "0"}, new int[] {4, 2, 1, 1, 2, 1, 1},
        new String[] {"-1", "-1", "1:4", "1:1", "-1", "3:4", "20:40"}, new int[] {2, 2, 0, 0, 2, 0, 0})
        .withAmContainers().containers("root.a.b", 10, "1:4").containers("root.a.c", 10, "1:1")
        .containers("root.d.e", 10, "3:4").containers("root.d.f", 3, "20:40")
        .priority("root.a", 1).priority("root.a.b", 1).priority("root.a.c", 1).priority("root.d", 1)
        .priority("root.d.e", 2).priority("root.d.f", 1).build();
    assertThat(s.taken(WHOLE, 0)).isEqualTo(3);
    assertThat(s.taken(WHOLE, 1)).isZero();
    assertThat(s.taken(WHOLE, 2)).isZero();
    assertThat(s.taken(WHOLE, 3)).isEqualTo(2);
  }
}
