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

  @Test
  void aConnectionThatCouldNotBeMadeMovesOnAtOnceWhileMembersAreLeftInTheRound() throws Exception {
    CallException refused = new UnreachableException("http://a", new java.net.ConnectException());
    CallException timedOut = new UnreachableException("http://a", new java.net.http.HttpTimeoutException("slow"));
    Failover f = Failover.over(List.of("a", "b", "c"));

    assertThat(f.afterFailure(refused).current()).isEqualTo("b");
    assertThat(f.afterFailure(refused).retryDelay()).isZero();
    assertThat(f.afterFailure(timedOut).retryDelay()).isEqualTo(Failover.DEFAULT_MIN_BACKOFF);
    // A whole round refused: back off before starting over, rather than spin.
    Failover round = f.afterFailure(refused).afterFailure(refused).afterFailure(refused);
    assertThat(round.current()).isEqualTo("a");
    assertThat(round.retryDelay()).isEqualTo(Duration.ofMillis(200));
    assertThat(Failover.over(List.of("a")).afterFailure(refused).retryDelay()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void callersStartWhereTheirKeyFallsSpreadOverTheMembersAndKeepTheOrder() {
    Failover members = Failover.over(List.of("a", "b", "c"));
    java.util.Set<String> starts = new java.util.HashSet<>();
    for (int app = 1; app <= 30; app++) {
      Failover f = members.startingFor(String.format("appattempt_1700000000000_%04d_000001", app));
      starts.add(f.current());
      assertThat(f.inCallingOrder()).hasSize(3).containsExactlyInAnyOrder("a", "b", "c").startsWith(f.current());
      assertThat(f).isEqualTo(members.startingFor(String.format("appattempt_1700000000000_%04d_000001", app)));
    }
    assertThat(starts).containsExactlyInAnyOrder("a", "b", "c");
    assertThat(members.startingFor("x").afterFailure(true).inCallingOrder())
        .isEqualTo(rotate(members.startingFor("x").inCallingOrder()));
  }

  private static List<String> rotate(List<String> l) {
    java.util.List<String> r = new java.util.ArrayList<>(l.subList(1, l.size()));
    r.add(l.get(0));
    return r;
  }
}
