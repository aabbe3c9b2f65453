package dev.bobbin.core.policy.capacity.preemption;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacitySettings;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How queue a gives back its excess round after round. a (75 %) fills a cluster of 100 GB with
 * containers of 1 GB; b (25 %) then asks for its 25 GB. Each cycle is one wait before a kill: a
 * round marks containers, the next one, a wait later, kills them, and b is given the space. Every
 * step is the number Hadoop's policy gives for the same queues.
 *
 * <p>A round takes the natural termination factor of a's excess over its ideal assignment (75 GB),
 * rounded up to whole containers, so the excess shrinks geometrically, by a factor of 1 - 0.2 a
 * cycle, until a is within the dead zone: its guarantee times 1.1, 82.5 GB.
 */
class ConvergenceTest {
  private static final CapacityTree TREE = CapacityTree.compute(CapacityQueueSpec.builder("root")
      .child(CapacityQueueSpec.builder("root.a").capacity(75).build())
      .child(CapacityQueueSpec.builder("root.b").capacity(25).build()).build(),
      new Resource(100 * 1024, 100), CapacitySettings.defaults(ResourceMath.DEFAULT));

  /** a's usage in GB before the first cycle and after each. */
  private static List<Integer> aAfterEachCycle(ProportionalPreemptionSettings s, int cycles) {
    Workload w = Workload.empty().app(0, "root.a", 100, true, 0).app(1, "root.b", 0, false, 25);
    List<Integer> out = new ArrayList<>(List.of(w.containers(0)));
    Map<String, Long> marks = new HashMap<>();
    long wait = s.maxWaitBeforeKill().toMillis();
    for (int cycle = 0; cycle < cycles; cycle++) {
      long now = 2 * cycle * wait;
      PreemptionRound.Result marked = PreemptionRound.run(w.input(TREE), s, marks, now);
      PreemptionRound.Result due = PreemptionRound.run(w.input(TREE), s, marked.marks(), now + wait);
      assertThat(due.toKill()).hasSameSizeAs(marked.toMark());
      List<String> killed = due.toKill().stream().map(Victim::id).toList();
      marks = due.marks();
      w = w.without(killed).grant(1, killed.size());
      out.add(w.containers(0));
    }
    return out;
  }

  @Test
  void theExcessShrinksByTheNaturalTerminationFactorUntilItIsWithinTheDeadZone() {
    // A round may take the whole cluster here, so only the natural termination factor paces it.
    // Excess 25 GB: 0.2 of it is 5 containers. 20 GB: 4. 16 GB: 3.2 GB, so 4 containers (the last
    // one taken may be more than what is left to take). 12 GB: 2.4, so 3. 9 GB: 1.8, so 2. At 82
    // GB a is within the dead zone and keeps 7 GB above its ideal assignment; b has 18 of its 25.
    ProportionalPreemptionSettings s = ProportionalPreemptionSettings.HADOOP_DEFAULTS.withTotalPreemptionPerRound(1f);
    assertThat(aAfterEachCycle(s, 7)).containsExactly(100, 95, 91, 87, 84, 82, 82, 82);
  }

  @Test
  void aLargerFactorConvergesFaster() {
    // With 0.5 (the example of Hadoop's documentation): 12.5 GB, so 13 containers; then 6 of 12.
    ProportionalPreemptionSettings s = ProportionalPreemptionSettings.HADOOP_DEFAULTS.withTotalPreemptionPerRound(1f)
        .withNaturalTerminationFactor(0.5);
    assertThat(aAfterEachCycle(s, 3)).containsExactly(100, 87, 81, 81);
  }

  @Test
  void withoutADeadZoneTheQueueComesDownToItsIdealAssignment() {
    // Rounding up to whole containers keeps taking one a cycle once 0.2 of the excess is less than one.
    ProportionalPreemptionSettings s = ProportionalPreemptionSettings.HADOOP_DEFAULTS.withTotalPreemptionPerRound(1f)
        .withMaxIgnoredOverCapacity(0);
    assertThat(aAfterEachCycle(s, 12)).containsExactly(100, 95, 91, 87, 84, 82, 80, 79, 78, 77, 76, 75, 75);
  }

  @Test
  void withHadoopsDefaultsTheRoundsAllowanceBindsFirst() {
    // A round may take 10 % of the cluster: while a's excess is above 10 GB it is scaled down to
    // 10 GB, of which 0.2 is 2 GB; below, 0.2 of 9 GB rounds up to 2 containers too. So 2 a cycle,
    // until a is at 82 GB, within the dead zone.
    assertThat(aAfterEachCycle(ProportionalPreemptionSettings.HADOOP_DEFAULTS, 10))
        .containsExactly(100, 98, 96, 94, 92, 90, 88, 86, 84, 82, 82);
  }
}
