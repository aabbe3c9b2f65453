package dev.bobbin.core.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApplicationLifecycleTest {
  /** Every allowed transition, written out; the table in ApplicationLifecycle must agree with it pair by pair. */
  private static final Set<String> ALLOWED = Set.of(
      "NEW>SUBMITTED",
      "SUBMITTED>ACCEPTED", "SUBMITTED>FAILED", "SUBMITTED>KILLED",
      "ACCEPTED>ACCEPTED", "ACCEPTED>RUNNING", "ACCEPTED>FAILED", "ACCEPTED>KILLED", "ACCEPTED>FINISHED",
      "RUNNING>ACCEPTED", "RUNNING>FINISHED", "RUNNING>FAILED", "RUNNING>KILLED");

  @Test
  void everyPairOfStatesIsAllowedExactlyWhenTheTableSaysSo() {
    for (AppState from : AppState.values()) {
      for (AppState to : AppState.values()) {
        boolean expected = ALLOWED.contains(from + ">" + to);
        assertThat(ApplicationLifecycle.allowed(from, to)).as(from + " -> " + to).isEqualTo(expected);
      }
    }
  }

  @Test
  void finalStatesLeadNowhere() {
    for (AppState end : EnumSet.of(AppState.FINISHED, AppState.FAILED, AppState.KILLED)) {
      assertThatThrownBy(() -> ApplicationLifecycle.check(end, AppState.RUNNING))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining(end.name());
    }
  }
}
