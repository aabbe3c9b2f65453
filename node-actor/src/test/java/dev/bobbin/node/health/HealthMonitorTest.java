package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.NmHealthSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The monitor with a real health script and real directories, checking every 100 ms. */
class HealthMonitorTest {
  static final ActorTestKit testKit = ActorTestKit.create();
  @TempDir Path dir;

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  /** A script that reports what the file {@code verdict} holds: "ERROR ..." or nothing. */
  private Path scriptReading(Path verdict) throws Exception {
    Path script = dir.resolve("health.sh");
    Files.writeString(script, "#!/bin/sh\ncat " + verdict + " 2>/dev/null\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  private static NmHealthSettings settings(Optional<Path> script, long minFreeMb) {
    return new NmHealthSettings(script, List.of(), Duration.ofMillis(100), Duration.ofSeconds(5), true,
        Duration.ofMillis(100), 0.25, 100.0, minFreeMb);
  }

  private TestProbe<HealthMonitor.Status> start(NmHealthSettings settings, List<Path> local, List<Path> log) {
    DiskChecker disks = new DiskChecker(local, log, settings);
    TestProbe<HealthMonitor.Status> parent = testKit.createTestProbe();
    testKit.spawn(HealthMonitor.create(settings, disks, disks.check(0), Clock.systemUTC(), parent.ref()));
    return parent;
  }

  private static HealthMonitor.Status awaitStatus(TestProbe<HealthMonitor.Status> parent, boolean healthy) {
    HealthMonitor.Status[] last = new HealthMonitor.Status[1];
    parent.awaitAssert(Duration.ofSeconds(10), () -> {
      last[0] = parent.receiveMessage(Duration.ofSeconds(2));
      assertThat(last[0].health().healthy()).as(last[0].toString()).isEqualTo(healthy);
      return null;
    });
    return last[0];
  }

  @Test
  void theScriptsErrorMakesTheNodeUnhealthyUntilItPassesAgain() throws Exception {
    Path verdict = dir.resolve("verdict");
    TestProbe<HealthMonitor.Status> parent = start(settings(Optional.of(scriptReading(verdict)), 0),
        List.of(dir.resolve("local")), List.of(dir.resolve("logs")));
    long before = System.currentTimeMillis();
    assertThat(awaitStatus(parent, true).health().report()).isEmpty();

    Files.writeString(verdict, "ERROR fan 2 stopped\n");
    HealthMonitor.Status sick = awaitStatus(parent, false);
    assertThat(sick.health().report()).isEqualTo("ERROR fan 2 stopped");
    assertThat(sick.health().checkedAt()).isGreaterThanOrEqualTo(before);
    assertThat(sick.disks().usable()).as("the directories are fine").isTrue();

    Files.writeString(verdict, "fan 2 replaced\n");
    assertThat(awaitStatus(parent, true).health().report()).isEmpty();
  }

  @Test
  void directoriesAreCreatedAndCheckedWithTheScriptsVerdictJoined() throws Exception {
    Path verdict = dir.resolve("verdict");
    Files.writeString(verdict, "ERROR memory errors\n");
    Path local = dir.resolve("local/node/usercache");
    // No disk has this much free space: every directory is full.
    TestProbe<HealthMonitor.Status> parent = start(settings(Optional.of(scriptReading(verdict)), Long.MAX_VALUE / 2),
        List.of(local), List.of(dir.resolve("logs/node/logs")));
    HealthMonitor.Status s = awaitStatus(parent, false);
    parent.awaitAssert(Duration.ofSeconds(10), () -> {
      HealthMonitor.Status now = parent.receiveMessage(Duration.ofSeconds(2));
      assertThat(now.health().report()).startsWith("ERROR memory errors;1/1 local-dirs failed: " + local + " (disk has ")
          .contains("; 1/1 log-dirs failed: ");
      return null;
    });
    assertThat(Files.isDirectory(local)).isTrue();
    assertThat(s.disks().usable()).isFalse();
  }
}
