package dev.bobbin.protocol.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverTest {
  @Test
  void unreachableMembersAreTriedRoundRobinAndUnavailabilityBacksOff() {
    Failover f = Failover.over(List.of("a", "b", "c"));
    assertThat(f.current()).isEqualTo("a");

    f = f.afterFailure(true);
    assertThat(f.current()).isEqualTo("b");
    assertThat(f.retryDelay()).isEqualTo(Failover.DEFAULT_MIN_BACKOFF);
    f = f.afterFailure(true).afterFailure(true);
    // One full round failed: wait longer, and start over with the first member.
    assertThat(f.current()).isEqualTo("a");
    assertThat(f.retryDelay()).isEqualTo(Duration.ofMillis(200));
    for (int i = 0; i < 100; i++) f = f.afterFailure(true);
    assertThat(f.retryDelay()).isEqualTo(Failover.DEFAULT_MAX_BACKOFF);

    f = f.afterSuccess();
    assertThat(f.consecutiveFailures()).isZero();
    assertThat(f.current()).isEqualTo(Failover.over(List.of("a", "b", "c")).addresses().get(f.index()));
  }

  @Test
  void aRefusalStaysWithTheSameMember() {
    Failover f = Failover.over(List.of("a", "b")).afterFailure(false);
    assertThat(f.current()).isEqualTo("a");
    assertThat(f.consecutiveFailures()).isEqualTo(1);
  }

  @Test
  void theBackoffBoundsAreTheCallersOwn() {
    Failover f = Failover.over(List.of("a"), Duration.ofMillis(20), Duration.ofMillis(50));
    assertThat(f.afterFailure(true).retryDelay()).isEqualTo(Duration.ofMillis(40));
    assertThat(f.afterFailure(true).afterFailure(true).retryDelay()).isEqualTo(Duration.ofMillis(50));
  }
}
