package dev.bobbin.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchOptionsTest {
  @TempDir Path dir;
  private Path out;

  @BeforeEach
  void resultsFile() {
    out = dir.resolve("results.md");
  }

  @Test
  void theJournalIsEmbeddedUnlessPostgresIsAskedFor() {
    assertThat(BenchOptions.parse(List.of("full-path"), out).postgres()).isFalse();
    assertThat(BenchOptions.parse(List.of("full-path", "--journal", "embedded"), out).postgres()).isFalse();
    assertThat(BenchOptions.parse(List.of("full-path", "--journal", "POSTGRES"), out).postgres()).isTrue();
    assertThat(BenchOptions.parse(List.of("submissions", "--journal", "postgres"), out).postgres()).isTrue();
  }

  @Test
  void anUnknownJournalIsRefusedByName() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--journal", "mysql"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--journal must be embedded or postgres, was 'mysql'");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--journal"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("Missing required parameter for option '--journal' (embedded|postgres)");
  }

  @Test
  void aPostgresJournalIsOnlyForTheFullPathAndSubmissions() {
    for (String scenario : List.of("heartbeats", "journal", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--journal", "postgres"), out))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--journal postgres is for the full-path and submissions scenarios only");
    }
  }

  @Test
  void theCapacityPolicyIsForTheSchedulerScenarioOnly() {
    assertThat(BenchOptions.parse(List.of("scheduler", "--policy", "capacity"), out).policiesOr(List.of("fifo")))
        .containsExactly("capacity");
    for (String scenario : List.of("heartbeats", "full-path", "memory", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--policy", "capacity"), out))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--policy capacity is measured by the scheduler scenario only");
    }
    assertThatThrownBy(() -> BenchOptions.parse(List.of("scheduler", "--policy", "lottery"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--policy must be fifo, fair or capacity");
  }

  @Test
  void theSubmissionClientsAreSixteenUnlessAskedFor() {
    assertThat(BenchOptions.parse(List.of("submissions"), out).clientsOr(16, 4)).isEqualTo(16);
    assertThat(BenchOptions.parse(List.of("submissions", "--quick"), out).clientsOr(16, 4)).isEqualTo(4);
    assertThat(BenchOptions.parse(List.of("submissions", "--clients", "64"), out).clientsOr(16, 4)).isEqualTo(64);
  }

  @Test
  void clientsAreRefusedOutsideTheSubmissionsOrWhenNotPositive() {
    for (String scenario : List.of("full-path", "heartbeats", "journal", "all")) {
      assertThatThrownBy(() -> BenchOptions.parse(List.of(scenario, "--clients", "8"), out))
          .as(scenario)
          .isInstanceOf(BenchOptions.UsageException.class)
          .hasMessage("--clients is for the submissions scenario only");
    }
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--clients", "0"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--clients must be positive, was 0");
  }

  @Test
  void theSubmissionsGoToAllTenQueuesUnlessFewerAreAskedFor() {
    assertThat(BenchOptions.parse(List.of("submissions"), out).queuesOr(10)).isEqualTo(10);
    assertThat(BenchOptions.parse(List.of("submissions", "--queues", "1"), out).queuesOr(10)).isEqualTo(1);
  }

  @Test
  void queuesAreRefusedOutsideTheSubmissionsOrOutsideOneToTen() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("full-path", "--queues", "1"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues is for the submissions scenario only");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--queues", "11"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues must be at most 10, was 11");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("submissions", "--queues", "0"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--queues must be positive, was 0");
  }

  @Test
  void theResultsGoToTheDefaultFileUnlessAnotherIsNamedOrNoneIsWanted() {
    assertThat(BenchOptions.parse(List.of("scheduler"), out).out()).isEqualTo(out);
    Path named = dir.resolve("mine.md");
    assertThat(BenchOptions.parse(List.of("scheduler", "--out", named.toString()), out).out()).isEqualTo(named);
    assertThat(BenchOptions.parse(List.of("scheduler", "--no-write"), out).out()).isNull();
    assertThatThrownBy(() -> BenchOptions.parse(List.of("scheduler", "--no-write", "--out", named.toString()), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("--out and --no-write exclude each other");
  }

  @Test
  void theDefaultResultsFileIsUnderTheWorkingDirectoryNotATrackedFile() {
    BenchOptions o = BenchOptions.of(BenchCommand.parsed(List.of("journal")), List.of("journal"));

    assertThat(o.out()).isEqualTo(Path.of("").toAbsolutePath().resolve("bench-results").resolve("benchmarks.md"));
  }

  @Test
  void mistakesAreUsageErrorsThatNameTheProblem() {
    assertThatThrownBy(() -> BenchOptions.parse(List.of("scheduler", "--nodse", "5"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("Unknown option: '--nodse'");
    assertThatThrownBy(() -> BenchOptions.parse(List.of("schedular"), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("unknown scenario 'schedular'");
    assertThatThrownBy(() -> BenchOptions.parse(List.of(), out))
        .isInstanceOf(BenchOptions.UsageException.class)
        .hasMessage("Missing required parameter: 'SCENARIO'");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = BenchCommand.run(List.of("scheduler", "--nodes", "many"), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(code).isEqualTo(64);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("--nodes must be a whole number, was 'many'").contains("Usage: bobbin bench");
  }

  @Test
  void theHelpListsTheScenariosAndOptions() {
    for (List<String> help : List.of(List.of("--help"), List.of("help"))) {
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      int code = BenchCommand.run(help, new PrintStream(printed, true, StandardCharsets.UTF_8), System.err);
      assertThat(code).as(help.toString()).isZero();
      assertThat(printed.toString(StandardCharsets.UTF_8)).startsWith("Usage: bobbin bench")
          .contains("scheduler, full-path", "--out=FILE", "--no-write", "bench-results/benchmarks.md");
    }
  }
}
