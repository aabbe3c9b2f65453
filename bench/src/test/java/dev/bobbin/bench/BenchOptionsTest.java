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
  void aPostgresJournalIsOnlyForTheFullPath() {
    for (String scenario : List.of("heartbeats", "submissions", "journal", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--journal", "postgres"), OUT))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--journal postgres is for the full-path scenario only");
    }
  }
}
