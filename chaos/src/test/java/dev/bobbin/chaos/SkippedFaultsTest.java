package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SkippedFaultsTest {
  private static final FaultPlan.Spec MIXED = FaultPlan.parseSpec("kill=1,partition=1,loss=2,slow=1,journal-stop=1");

  @Test
  void withoutRootOrLinuxEveryNetworkFaultIsSkippedAndTheRestRuns() {
    Map<FaultKind, String> skipped = SkippedFaults.decide(MIXED, 3,
        Optional.of("root (for network namespaces, links and rules), and this run is uid 1000"), Optional.empty(), Map.of());
    assertThat(skipped).containsOnlyKeys(FaultKind.PARTITION, FaultKind.LOSS, FaultKind.SLOW);
    assertThat(SkippedFaults.describe(MIXED, skipped)).contains(
        "loss=2 skipped: network faults need root (for network namespaces, links and rules), and this run is uid 1000");
    assertThat(MIXED.without(skipped.keySet()))
        .isEqualTo(new FaultPlan.Counts(Map.of(FaultKind.KILL, 1, FaultKind.JOURNAL_STOP, 1)));
  }

  @Test
  void aMissingKernelFeatureSkipsOnlyTheFaultThatNeedsIt() {
    Map<FaultKind, String> skipped = SkippedFaults.decide(MIXED, 3, Optional.empty(), Optional.empty(),
        Map.of(FaultKind.LOSS, "no iptables command (Debian package iptables)"));
    assertThat(skipped).containsExactly(Map.entry(FaultKind.LOSS, "no iptables command (Debian package iptables)"));
  }

  @Test
  void namespacesThatCouldNotBeMadeSkipEveryNetworkFault() {
    assertThat(SkippedFaults.decide(MIXED, 3, Optional.empty(), Optional.of("ip link add failed"), Map.of()))
        .containsOnlyKeys(FaultKind.PARTITION, FaultKind.LOSS, FaultKind.SLOW)
        .containsValue("the member namespaces could not be set up: ip link add failed");
  }

  @Test
  void oneMemberCannotBePartitionedButItsLinkCanBeSlow() {
    FaultPlan.Spec mix = FaultPlan.parseSpec("isolate:1,partition-pause:1,slow:1");
    Map<FaultKind, String> skipped = SkippedFaults.decide(mix, 1, Optional.empty(), Optional.empty(), Map.of());
    assertThat(skipped).containsOnlyKeys(FaultKind.ISOLATE, FaultKind.PARTITION_PAUSE);
    assertThat(SkippedFaults.describe(mix, skipped))
        .contains("isolate left out of the mix: a partition needs at least 2 members");
  }

  @Test
  void nothingIsSkippedWhenNoNetworkFaultIsAsked() {
    assertThat(SkippedFaults.decide(FaultPlan.parseSpec("kill=1,journal-freeze=1"), 1, Optional.of("Linux"),
        Optional.empty(), Map.of())).isEmpty();
  }
}
