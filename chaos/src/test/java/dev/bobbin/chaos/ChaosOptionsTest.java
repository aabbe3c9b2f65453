package dev.bobbin.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosOptionsTest {
  @Test
  void defaultsAreThreeMembersThreeNodesOneKillOnePauseForAMinute() {
    ChaosOptions o = ChaosOptions.parse(List.of());
    assertThat(o.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.members()).isEqualTo(3);
    assertThat(o.nodes()).isEqualTo(3);
    assertThat(o.faults()).isEqualTo(new FaultPlan.Counts(1, 1, 0));
    assertThat(o.faultInterval()).isEmpty();
    assertThat(o.appsPerMinute()).isEqualTo(12.0);
    assertThat(o.workDir()).isEmpty();
    assertThat(o.classpath()).isEmpty();
    assertThat(o.drain()).isEqualTo(Duration.ofSeconds(120));
    assertThat(o.pauseHold()).isEqualTo(Duration.ofSeconds(40));
    assertThat(o.faultHold()).isEqualTo(Duration.ofSeconds(20));
    assertThat(o.restartDelay()).isEqualTo(Duration.ofSeconds(5));
    assertThat(o.failoverTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(o.keepContainersShare()).isEqualTo(0.25);
  }

  @Test
  void everyOptionInBothSpellings() {
    ChaosOptions o = ChaosOptions.parse(List.of("--duration", "2m", "--members=5", "--nodes", "4",
        "--faults", "kill=3,term=2", "--fault-interval", "15s", "--apps-per-minute", "30", "--seed", "42",
        "--work-dir", "/tmp/x", "--drain=90s", "--pause-hold", "30s", "--fault-hold", "15s", "--restart-delay", "0s",
        "--failover-timeout", "45s", "--nm-memory", "8192", "--nm-vcores", "8", "--classpath", "/a:/b",
        "--keep-containers-share=0.5"));
    assertThat(o.duration()).isEqualTo(Duration.ofMinutes(2));
    assertThat(o.members()).isEqualTo(5);
    assertThat(o.nodes()).isEqualTo(4);
    assertThat(o.faults()).isEqualTo(new FaultPlan.Counts(3, 0, 2));
    assertThat(o.faultInterval()).contains(Duration.ofSeconds(15));
    assertThat(o.appsPerMinute()).isEqualTo(30.0);
    assertThat(o.seed()).isEqualTo(42);
    assertThat(o.workDir()).contains(Path.of("/tmp/x"));
    assertThat(o.drain()).isEqualTo(Duration.ofSeconds(90));
    assertThat(o.pauseHold()).isEqualTo(Duration.ofSeconds(30));
    assertThat(o.faultHold()).isEqualTo(Duration.ofSeconds(15));
    assertThat(o.restartDelay()).isZero();
    assertThat(o.failoverTimeout()).isEqualTo(Duration.ofSeconds(45));
    assertThat(o.nodeMemoryMb()).isEqualTo(8192);
    assertThat(o.nodeVcores()).isEqualTo(8);
    assertThat(o.classpath()).contains("/a:/b");
    assertThat(o.keepContainersShare()).isEqualTo(0.5);
    assertThat(ChaosOptions.parse(List.of("--keep-containers-share", "0")).keepContainersShare()).isZero();
    assertThat(ChaosOptions.parse(List.of("--keep-containers-share", "1")).keepContainersShare()).isEqualTo(1.0);
  }

  @Test
  void faultsAsNoneCountsOrAMix() {
    assertThat(ChaosOptions.parse(List.of("--faults", "none")).faults()).isEqualTo(new FaultPlan.Counts(0, 0, 0));
    assertThat(ChaosOptions.parse(List.of("--faults", "pause=2")).faults()).isEqualTo(new FaultPlan.Counts(0, 2, 0));
    assertThat(ChaosOptions.parse(List.of("--faults", "2:1:1", "--fault-interval", "20s")).faults())
        .isEqualTo(new FaultPlan.Ratio(2, 1, 1));
    assertThat(ChaosOptions.parse(List.of("--faults", "partition=1,journal-stop=1")).faults())
        .isEqualTo(new FaultPlan.Counts(java.util.Map.of(FaultKind.PARTITION, 1, FaultKind.JOURNAL_STOP, 1)));
    assertThat(ChaosOptions.parse(List.of("--faults", "kill:2,partition-pause:1", "--fault-interval", "20s")).faults())
        .isEqualTo(new FaultPlan.Ratio(java.util.Map.of(FaultKind.KILL, 2, FaultKind.PARTITION_PAUSE, 1)));
    assertThat(ChaosOptions.parse(List.of("--faults", "kill=1,am-kill=2")).faults())
        .isEqualTo(new FaultPlan.Counts(java.util.Map.of(FaultKind.KILL, 1, FaultKind.AM_KILL, 2)));
    assertThat(ChaosOptions.parse(List.of("--faults", "am-kill:3,pause:1", "--fault-interval", "20s")).faults())
        .isEqualTo(new FaultPlan.Ratio(java.util.Map.of(FaultKind.AM_KILL, 3, FaultKind.PAUSE, 1)));
  }

  @Test
  void durationsTakeUnitsAndBareSeconds() {
    assertThat(Durations.parse("x", "500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("x", "20")).isEqualTo(Duration.ofSeconds(20));
    assertThat(Durations.parse("x", "1.5m")).isEqualTo(Duration.ofSeconds(90));
    assertThat(Durations.parse("x", "1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.format(3450)).isEqualTo("3.5s");
  }

  @Test
  void mistakesNameTheOption() {
    assertUsage(List.of("--bogus", "1"), "Unknown option: '--bogus'");
    assertUsage(List.of("--members"), "Missing required parameter for option '--members' (N)");
    assertUsage(List.of("--members", "0"), "--members must be a whole number from 1");
    assertUsage(List.of("--nodes", "two"), "--nodes must be a whole number");
    assertUsage(List.of("--duration", "soon"), "--duration must be a duration");
    assertUsage(List.of("--duration", "0s"), "--duration must be more than 0");
    assertUsage(List.of("--faults", "kill=1,crash=2"), "'crash=2' is not kill=N");
    assertUsage(List.of("--faults", "kill=1,crash=2"), "partition-pause=N, journal-stop=N, journal-freeze=N");
    assertUsage(List.of("--faults", "kill:1,partition"), "'partition' is not kill:N");
    assertUsage(List.of("--faults", "partition:0", "--fault-interval", "5s"), "has no fault in it");
    assertUsage(List.of("--faults", "journal-stop:1"), "give --fault-interval too");
    assertUsage(List.of("--fault-hold", "0s"), "--fault-hold must be more than 0");
    assertUsage(List.of("--faults", "kill=-1"), "needs a whole number >= 0");
    assertUsage(List.of("--faults", "1:1"), "a mix is kill:pause:term");
    assertUsage(List.of("--faults", "0:0:0", "--fault-interval", "5s"), "has no fault in it");
    assertUsage(List.of("--faults", "2:1:0"), "give --fault-interval too");
    assertUsage(List.of("--faults", "often"), "--faults must be none");
    assertUsage(List.of("--apps-per-minute", "0"), "--apps-per-minute must be a number above 0");
    assertUsage(List.of("--seed", "x"), "--seed must be a whole number");
    assertUsage(List.of("--keep-containers-share", "1.5"), "--keep-containers-share must be a number from 0 to 1, was '1.5'");
    assertUsage(List.of("--keep-containers-share", "-0.1"), "--keep-containers-share must be a number from 0 to 1");
    assertUsage(List.of("--keep-containers-share", "a quarter"), "--keep-containers-share must be a number from 0 to 1");
    assertUsage(List.of("--faults", "am-kill=1,am-crash=1"), "'am-crash=1' is not kill=N");
    assertUsage(List.of("--faults", "am-kill=1,am-crash=1"), "journal-freeze=N, am-kill=N");
    assertUsage(List.of("--nodes", "1", "--nodes", "2"), "option '--nodes' (N) should be specified only once");
    assertUsage(List.of("stray"), "Unmatched argument at index 0: 'stray'");
  }

  @Test
  void usageAndExitCodeOfTheCommand() {
    var buf = new java.io.ByteArrayOutputStream();
    var out = new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8);
    assertThat(ChaosCommand.run(List.of("--members", "x"), out)).isEqualTo(64);
    assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("--members must be a whole number").contains("Usage: bobbin chaos");
    assertThat(ChaosCommand.run(List.of("--help"), out)).isZero();
    assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("--keep-containers-share=F", "am-kill");
    buf.reset();
    assertThat(ChaosCommand.run(List.of("--keep-containers-share", "2"), out)).isEqualTo(64);
    assertThat(buf.toString(java.nio.charset.StandardCharsets.UTF_8))
        .contains("--keep-containers-share must be a number from 0 to 1, was '2'").contains("Usage: bobbin chaos");
  }

  private static void assertUsage(List<String> args, String message) {
    assertThatThrownBy(() -> ChaosOptions.parse(args)).isInstanceOf(ChaosUsageException.class)
        .hasMessageContaining(message);
  }
}
