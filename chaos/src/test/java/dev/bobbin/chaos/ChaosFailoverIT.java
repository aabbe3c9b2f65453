package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/** The short chaos run of the default suite: one kill -9 and one pause of a member of three. */
class ChaosFailoverIT {

  @Test
  void oneKillAndOnePauseOfThreeMembersLoseNothing(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) {
    ChaosRunner.Outcome run = ChaosRunner.run(List.of("--members", "3", "--nodes", "3", "--duration", "40s",
        "--faults", "kill=1,pause=1,term=0", "--seed", "1", "--work-dir", dir.resolve("chaos").toString()));
    assertThat(run.exitCode()).as(run.printed()).isZero();
    assertThat(run.faults()).as(run.printed()).isEqualTo(2);
    assertThat(run.violations()).as(run.printed()).isZero();
    assertThat(run.succeeded()).as(run.printed()).isGreaterThanOrEqualTo(1).isEqualTo(run.accepted());
  }
}
