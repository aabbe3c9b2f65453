package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PhaseManifestsTest {
  private final PhaseManifests phases = new PhaseManifests(Set.of("Completed", "Withdrawn"),
      Set.of("Allocated", "Launched"));

  @Test
  void aContainerHasEndedWhenItsLastPhaseSettingEventEndsIt() {
    assertThat(phases.endsCompleted(List.of("Allocated", "Launched", "Completed"))).isTrue();
    assertThat(phases.endsCompleted(List.of("Allocated", "Withdrawn"))).isTrue();
    assertThat(phases.endsCompleted(List.of("Completed", "PreemptionRequested", "CompletionDelivered"))).isTrue();
  }

  @Test
  void aContainerHasNotEndedWithoutAnEndingEventLast() {
    assertThat(phases.endsCompleted(List.of("Allocated", "Launched"))).isFalse();
    assertThat(phases.endsCompleted(List.of("Completed", "Launched"))).isFalse();
    assertThat(phases.endsCompleted(List.of("PreemptionRequested"))).isFalse();
    assertThat(phases.endsCompleted(List.of())).isFalse();
  }
}
