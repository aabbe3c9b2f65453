package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short chaos run of the default suite: one kill -9 and one pause of a member of three, and
 * one SIGKILL of a long-running application's AM while its tasks run.
 */
class ChaosFailoverIT {

  @Test
  void aKillAPauseAndAnAmKillLoseNothingAndRunNoTaskTwice(@TempDir(cleanup = CleanupMode.ON_SUCCESS) Path dir) {
    ChaosRunner.Outcome run = ChaosRunner.run(List.of("--members", "3", "--nodes", "3", "--duration", "40s",
        "--faults", "kill=1,pause=1,term=0,am-kill=1", "--keep-containers-share", "0.25", "--seed", "1",
        "--work-dir", dir.resolve("chaos").toString()));
    assertThat(run.exitCode()).as(run.printed()).isZero();
    assertThat(run.faults()).as(run.printed()).isEqualTo(3);
    assertThat(run.faultNotes("am-kill")).as(run.printed()).singleElement().asString()
        .startsWith("SIGKILL to the AM of application_").contains("registered");
    assertThat(run.violations()).as(run.printed()).isZero();
    assertThat(run.keptAtAmDeath()).as(run.printed()).isPositive();
    assertThat(run.row("kept containers: tasks run twice, kept ones stopped")).as(run.printed()).isZero();
    assertThat(run.row("kept containers lost or run twice")).as(run.printed()).isZero();
    assertThat(run.succeeded()).as(run.printed()).isGreaterThanOrEqualTo(1).isEqualTo(run.accepted());
  }
}
