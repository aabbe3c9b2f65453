package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FaultPlanTest {
  @Test
  void countsAreExactAndSpreadEvenlyOverTheDuration() {
    FaultPlan plan = FaultPlan.build(new FaultPlan.Counts(2, 1, 0), Duration.ofSeconds(80), Optional.empty(),
        new Random(7));
    assertThat(plan.faults()).extracting(FaultPlan.Planned::kind)
        .containsExactlyInAnyOrder(FaultKind.KILL, FaultKind.KILL, FaultKind.PAUSE);
    assertThat(plan.faults()).extracting(FaultPlan.Planned::notBefore)
        .containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(60));
  }

  @Test
  void countsWithAnIntervalKeepEveryFaultEvenPastTheDuration() {
    FaultPlan plan = FaultPlan.build(new FaultPlan.Counts(0, 0, 3), Duration.ofSeconds(30),
        Optional.of(Duration.ofSeconds(20)), new Random(1));
    assertThat(plan.faults()).extracting(FaultPlan.Planned::notBefore)
        .containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(40), Duration.ofSeconds(60));
  }

  @Test
  void aMixDrawsOneFaultPerIntervalWithinTheDurationByWeight() {
    FaultPlan plan = FaultPlan.build(new FaultPlan.Ratio(1, 0, 1), Duration.ofMinutes(20),
        Optional.of(Duration.ofSeconds(20)), new Random(3));
    assertThat(plan.faults()).hasSize(59);
    assertThat(plan.faults()).extracting(FaultPlan.Planned::kind).doesNotContain(FaultKind.PAUSE)
        .contains(FaultKind.KILL, FaultKind.TERM);
    assertThat(plan.faults().get(58).notBefore()).isEqualTo(Duration.ofSeconds(59 * 20));
  }

  @Test
  void theSameSeedGivesTheSamePlan() {
    FaultPlan.Spec spec = FaultPlan.parseSpec("kill=3,pause=3,term=3");
    List<FaultPlan.Planned> a = FaultPlan.build(spec, Duration.ofMinutes(5), Optional.empty(), new Random(9)).faults();
    List<FaultPlan.Planned> b = FaultPlan.build(spec, Duration.ofMinutes(5), Optional.empty(), new Random(9)).faults();
    assertThat(a).isEqualTo(b);
  }

  @Test
  void noneIsEmpty() {
    assertThat(FaultPlan.build(FaultPlan.parseSpec("none"), Duration.ofMinutes(1), Optional.empty(), new Random(1))
        .faults()).isEmpty();
    assertThat(FaultPlan.describe(FaultPlan.parseSpec("none"))).isEqualTo("none");
    assertThat(FaultPlan.describe(FaultPlan.parseSpec("kill=1"))).isEqualTo("kill=1,pause=0,term=0");
  }
}
