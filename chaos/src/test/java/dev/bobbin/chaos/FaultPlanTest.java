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

  @Test
  void everyKindHasACountAndTheClassicOnesAreAlwaysDescribed() {
    FaultPlan.Spec spec = FaultPlan.parseSpec("partition=1,journal-stop=2,partition-pause=1");
    assertThat(spec.of(FaultKind.PARTITION)).isEqualTo(1);
    assertThat(spec.of(FaultKind.JOURNAL_STOP)).isEqualTo(2);
    assertThat(spec.of(FaultKind.PARTITION_PAUSE)).isEqualTo(1);
    assertThat(spec.of(FaultKind.KILL)).isZero();
    assertThat(FaultPlan.describe(spec)).isEqualTo("kill=0,pause=0,term=0,partition=1,partition-pause=1,journal-stop=2");
    assertThat(FaultPlan.build(spec, Duration.ofSeconds(50), Optional.empty(), new Random(2)).faults())
        .extracting(FaultPlan.Planned::kind).containsExactlyInAnyOrder(FaultKind.PARTITION, FaultKind.PARTITION_PAUSE,
            FaultKind.JOURNAL_STOP, FaultKind.JOURNAL_STOP);
  }

  @Test
  void aNamedMixDrawsOnlyTheKindsItWeighs() {
    FaultPlan.Spec spec = FaultPlan.parseSpec("kill:1,isolate:1,loss:1,slow:1,journal-freeze:1");
    assertThat(spec).isInstanceOf(FaultPlan.Ratio.class);
    assertThat(FaultPlan.describe(spec)).isEqualTo("mix kill:1,isolate:1,loss:1,slow:1,journal-freeze:1");
    List<FaultPlan.Planned> faults = FaultPlan.build(spec, Duration.ofMinutes(20), Optional.of(Duration.ofSeconds(10)),
        new Random(5)).faults();
    assertThat(faults).hasSize(119).extracting(FaultPlan.Planned::kind)
        .containsOnly(FaultKind.KILL, FaultKind.ISOLATE, FaultKind.LOSS, FaultKind.SLOW, FaultKind.JOURNAL_FREEZE);
  }

  @Test
  void kindsThisHostCannotInjectAreLeftOut() {
    FaultPlan.Spec counts = FaultPlan.parseSpec("kill=1,partition=2,loss=1,journal-stop=1")
        .without(java.util.Set.of(FaultKind.PARTITION, FaultKind.LOSS));
    assertThat(counts).isEqualTo(new FaultPlan.Counts(java.util.Map.of(FaultKind.KILL, 1, FaultKind.JOURNAL_STOP, 1)));
    FaultPlan.Spec mix = FaultPlan.parseSpec("slow:3").without(java.util.Set.of(FaultKind.SLOW));
    assertThat(mix.total()).isZero();
    assertThat(FaultPlan.build(mix, Duration.ofMinutes(1), Optional.of(Duration.ofSeconds(10)), new Random(1)).faults())
        .isEmpty();
  }

  @Test
  void amKillsAreCountedAndMixedLikeTheOtherKinds() {
    FaultPlan.Spec counts = FaultPlan.parseSpec("kill=1,pause=1,am-kill=2");
    assertThat(FaultPlan.describe(counts)).isEqualTo("kill=1,pause=1,term=0,am-kill=2");
    List<FaultPlan.Planned> planned = FaultPlan.build(counts, Duration.ofSeconds(50), Optional.empty(), new Random(4))
        .faults();
    assertThat(planned).extracting(FaultPlan.Planned::kind)
        .containsExactlyInAnyOrder(FaultKind.KILL, FaultKind.PAUSE, FaultKind.AM_KILL, FaultKind.AM_KILL);
    assertThat(planned).extracting(FaultPlan.Planned::notBefore).containsExactly(Duration.ofSeconds(10),
        Duration.ofSeconds(20), Duration.ofSeconds(30), Duration.ofSeconds(40));

    FaultPlan.Spec mix = FaultPlan.parseSpec("am-kill:1,term:1");
    assertThat(FaultPlan.describe(mix)).isEqualTo("mix term:1,am-kill:1");
    assertThat(FaultPlan.build(mix, Duration.ofMinutes(10), Optional.of(Duration.ofSeconds(30)), new Random(6)).faults())
        .hasSize(19).extracting(FaultPlan.Planned::kind).containsOnly(FaultKind.TERM, FaultKind.AM_KILL)
        .contains(FaultKind.AM_KILL);
  }

  @Test
  void amKillsAreSkippedWhenNoApplicationKeepsItsContainersOrWithoutProc() {
    FaultPlan.Spec spec = FaultPlan.parseSpec("kill=1,am-kill=2");
    assertThat(SkippedFaults.withoutServices(spec, 0.25, true)).isEmpty();
    var skipped = SkippedFaults.withoutServices(spec, 0, true);
    assertThat(SkippedFaults.describe(spec, skipped))
        .containsExactly("am-kill=2 skipped: --keep-containers-share 0 submits no long-running application");
    assertThat(spec.without(skipped.keySet())).isEqualTo(new FaultPlan.Counts(1, 0, 0));
    assertThat(SkippedFaults.describe(spec, SkippedFaults.withoutServices(spec, 0.25, false)))
        .containsExactly("am-kill=2 skipped: finding an AM's process needs Linux's /proc");
    assertThat(SkippedFaults.withoutServices(FaultPlan.parseSpec("kill=1"), 0, false)).isEmpty();
  }

  @Test
  void labelsAreWhatTheOptionTakes() {
    for (FaultKind k : FaultKind.values()) assertThat(FaultKind.ofLabel(k.label())).contains(k);
    assertThat(FaultKind.PARTITION_PAUSE.label()).isEqualTo("partition-pause");
    assertThat(FaultKind.KILL.heals()).isFalse();
    assertThat(FaultKind.PARTITION.heals()).isTrue();
    assertThat(FaultKind.JOURNAL_FREEZE.heals()).isTrue();
    assertThat(FaultKind.AM_KILL.label()).isEqualTo("am-kill");
    assertThat(FaultKind.AM_KILL.heals()).isFalse();
  }
}
