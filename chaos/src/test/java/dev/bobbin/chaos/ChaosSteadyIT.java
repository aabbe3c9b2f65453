package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real harness without faults: PostgreSQL, one RM member and two NodeManagers as processes,
 * 20 s of distributed-shell applications. Takes about a minute. Its work dir (child logs) is kept
 * when it fails.
 */
class ChaosSteadyIT {
  @Test
  void withoutFaultsEveryAcceptedApplicationFinishesAndNothingBreaks(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) {
    ChaosRunner.Outcome run = ChaosRunner.run(List.of("--members", "1", "--nodes", "2", "--duration", "20s",
        "--faults", "none", "--seed", "1", "--drain", "60s", "--work-dir", dir.resolve("chaos").toString()));
    assertThat(run.exitCode()).as(run.printed()).isZero();
    assertThat(run.passed()).as(run.printed()).isTrue();
    assertThat(run.violations()).as(run.printed()).isZero();
    assertThat(run.succeeded()).as(run.printed()).isGreaterThanOrEqualTo(1).isEqualTo(run.accepted());
    assertThat(run.printed()).contains("Violations: none", "lost containers");
  }
}
