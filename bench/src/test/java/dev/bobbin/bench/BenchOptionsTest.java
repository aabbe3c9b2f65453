package dev.bobbin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {
  private static final Path OUT = Path.of("BENCHMARKS.md");

  @Test
  void theJournalIsEmbeddedUnlessPostgresIsAskedFor() {
    assertThat(BenchOptions.parse(List.of("full-path"), OUT).postgres()).isFalse();
    assertThat(BenchOptions.parse(List.of("full-path", "--journal", "embedded"), OUT).postgres()).isFalse();
    assertThat(BenchOptions.parse(List.of("full-path", "--journal", "POSTGRES"), OUT).postgres()).isTrue();
    assertThat(BenchOptions.parse(List.of("submissions", "--journal", "postgres"), OUT).postgres()).isTrue();
  }

  @Test
  void anUnknownJournalIsRefusedByName() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--journal", "mysql"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--journal must be embedded or postgres, was 'mysql'");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--journal"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--journal needs a value");
  }

  @Test
  void aPostgresJournalIsOnlyForTheFullPathAndSubmissions() {
    for (String scenario : List.of("heartbeats", "journal", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--journal", "postgres"), OUT))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--journal postgres is for the full-path and submissions scenarios only");
    }
  }

  @Test
  void theSubmissionClientsAreSixteenUnlessAskedFor() {
    assertThat(BenchOptions.parse(List.of("submissions"), OUT).clientsOr(16, 4)).isEqualTo(16);
    assertThat(BenchOptions.parse(List.of("submissions", "--quick"), OUT).clientsOr(16, 4)).isEqualTo(4);
    assertThat(BenchOptions.parse(List.of("submissions", "--clients", "64"), OUT).clientsOr(16, 4)).isEqualTo(64);
  }

  @Test
  void clientsAreRefusedOutsideTheSubmissionsOrWhenNotPositive() {
    for (String scenario : List.of("full-path", "heartbeats", "journal", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--clients", "8"), OUT))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--clients is for the submissions scenario only");
    }
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--clients", "0"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--clients must be positive, was 0");
  }

  @Test
  void theSubmissionsGoToAllTenQueuesUnlessFewerAreAskedFor() {
    assertThat(BenchOptions.parse(List.of("submissions"), OUT).queuesOr(10)).isEqualTo(10);
    assertThat(BenchOptions.parse(List.of("submissions", "--queues", "1"), OUT).queuesOr(10)).isEqualTo(1);
  }

  @Test
  void queuesAreRefusedOutsideTheSubmissionsOrOutsideOneToTen() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--queues", "1"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues is for the submissions scenario only");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--queues", "11"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues must be at most 10, was 11");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--queues", "0"), OUT))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues must be positive, was 0");
  }
}
