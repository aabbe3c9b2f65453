package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default suite's short run of the faults a network and a database bring: a cluster-only
 * partition of one member of three (as root on Linux; said skipped elsewhere) and the journal's
 * PostgreSQL stopped and started again. Nothing is lost, every accepted application succeeds, and
 * the journal shows no write from a member after the survivors fenced it.
 */
class ChaosPartitionIT {

  @Test
  void aPartitionAndAJournalOutageLoseNothingAndLeaveNoStaleWrite(
      @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) {
    ChaosRunner.Outcome run = ChaosRunner.run(List.of("--members", "3", "--nodes", "2", "--duration", "40s",
        "--faults", "partition=1,journal-stop=1", "--fault-hold", "10s", "--seed", "1",
        "--work-dir", dir.resolve("chaos").toString()));
    assertThat(run.exitCode()).as(run.printed()).isZero();
    int expected = MemberNetwork.unsupported().isEmpty() ? 2 : 1;
    assertThat(run.faults()).as(run.printed()).isEqualTo(expected);
    assertThat(run.violations()).as(run.printed()).isZero();
    assertThat(run.succeeded()).as(run.printed()).isGreaterThanOrEqualTo(1).isEqualTo(run.accepted());
    assertThat(run.printed()).as("the journal was audited for writes after a fence")
        .containsPattern("journal writes after the writer was fenced +0 +expected 0 +ok");
  }
}
