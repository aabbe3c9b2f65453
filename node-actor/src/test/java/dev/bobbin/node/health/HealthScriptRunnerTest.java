package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The health script run as a real process. */
class HealthScriptRunnerTest {
  @TempDir Path dir;

  private Path script(String body) throws Exception {
    Path script = dir.resolve("health.sh");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  @Test
  void itsOptionsArePassedAndItsOutputAndExitCodeRead() throws Exception {
    ScriptOutcome outcome = new HealthScriptRunner(script("echo \"$1 $2\"; echo noise >&2; exit 3"),
        List.of("--disk", "/data1"), Duration.ofSeconds(10)).run();
    assertThat(outcome).isEqualTo(new ScriptOutcome.Exited(3, "--disk /data1\n"));
  }

  @Test
  void aScriptPastItsTimeoutIsStoppedWithWhatItStarted() throws Exception {
    Path childPid = dir.resolve("child.pid");
    Path script = script("sleep 300 & echo $! > " + childPid + "; wait");
    long started = System.nanoTime();
    ScriptOutcome outcome = new HealthScriptRunner(script, List.of(), Duration.ofMillis(500)).run();
    assertThat(outcome).isEqualTo(new ScriptOutcome.TimedOut(500));
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    long pid = Long.parseLong(Files.readString(childPid).strip());
    // Gone, or going: a child left running would hold this wait to its bound and fail it.
    var child = ProcessHandle.of(pid);
    if (child.isPresent()) child.get().onExit().get(5, TimeUnit.SECONDS);
  }

  @Test
  void aScriptThatCannotBeStartedSaysWhy() {
    ScriptOutcome outcome = new HealthScriptRunner(dir.resolve("missing.sh"), List.of(), Duration.ofSeconds(1)).run();
    assertThat(outcome).isInstanceOf(ScriptOutcome.Failed.class);
    assertThat(((ScriptOutcome.Failed) outcome).error()).contains("missing.sh");
  }
}
