package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch script run by bash, as the local launcher runs it: it records its pid as it starts and
 * its exit code as it ends, whole, for a NodeManager that was not watching; and its process still
 * exits as the commands did, so a NodeManager that watches sees what it saw before.
 */
class LaunchScriptProcessTest {
  static final String CID = LaunchScriptTest.CID;
  @TempDir Path dir;

  private ContainerProcess launch(String... commands) throws Exception {
    ContainerLayout.Dirs dirs = new ContainerLayout(dir, "host-a:8042").dirsFor("alice", LaunchScriptTest.APP, CID);
    LaunchSpec spec = LaunchScript.plan(CID, LaunchScriptTest.APP, "alice", Resource.of(256, 1),
        new ContainerLaunchContext(List.of(commands), Map.of()), dirs,
        new LaunchScript.NodeFacts("host-a", 8042, System.getProperty("java.home"), List.of()), System.getenv());
    return new LocalProcessLauncher().launch(spec);
  }

  private Path workDir() {
    return new ContainerLayout(dir, "host-a:8042").dirsFor("alice", LaunchScriptTest.APP, CID).workDir();
  }

  private static int exitOf(ContainerProcess p) throws Exception {
    return p.onExit().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void theExitCodeOfTheCommandsIsWrittenAndIsTheProcessExitCode() throws Exception {
    ContainerProcess p = launch("true", "exit 3");
    assertThat(exitOf(p)).isEqualTo(3);
    assertThat(ProcessFiles.exitCode(workDir(), CID)).isEqualTo(OptionalInt.of(3));
    assertThat(ProcessFiles.pid(workDir(), CID)).hasValue(p.pid());
    try (var files = Files.list(workDir())) {
      assertThat(files.map(f -> f.getFileName().toString())).as("no temporary file left")
          .noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void aLastCommandThatExecsStillHasItsExitCodeWritten() throws Exception {
    ContainerProcess p = launch("exec sh -c 'exit 4'");
    assertThat(exitOf(p)).isEqualTo(4);
    assertThat(ProcessFiles.exitCode(workDir(), CID)).isEqualTo(OptionalInt.of(4));
  }

  @Test
  void successIsWrittenAsZero() throws Exception {
    assertThat(exitOf(launch("echo hello"))).isZero();
    assertThat(ProcessFiles.exitCode(workDir(), CID)).isEqualTo(OptionalInt.of(0));
    assertThat(Files.readString(dir.resolve("host-a_8042/logs").resolve(LaunchScriptTest.APP).resolve(CID)
        .resolve(LaunchSpec.STDOUT))).isEqualTo("hello\n");
  }

  @Test
  void aSigtermToTheGroupEndsItWith143AsBeforeAndWrites143() throws Exception {
    ContainerProcess p = sleeping();
    p.terminate();
    assertThat(exitOf(p)).isEqualTo(143);
    assertThat(ProcessFiles.exitCode(workDir(), CID)).isEqualTo(OptionalInt.of(143));
    assertThat(p.treeAlive()).isFalse();
  }

  @Test
  void aSigkillLeavesNoExitCodeAndTheProcessExitsWith137AsBefore() throws Exception {
    ContainerProcess p = sleeping();
    p.forceKill();
    assertThat(exitOf(p)).isEqualTo(137);
    assertThat(ProcessFiles.exitCode(workDir(), CID)).isEmpty();
  }

  @Test
  void anExitCodeFileThatIsALinkIsNotFollowed() throws Exception {
    Path work = Files.createDirectories(workDir());
    Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "0\n");
    Files.createSymbolicLink(ProcessFiles.exitCodeFile(work, CID), elsewhere);
    assertThat(ProcessFiles.exitCode(work, CID)).isEmpty();
  }

  /** A container whose commands have started and sleep. */
  private ContainerProcess sleeping() throws Exception {
    ContainerProcess p = launch("echo started > started", "sleep 600");
    awaitFile(workDir().resolve("started"));
    return p;
  }

  private static void awaitFile(Path file) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Files.exists(file)) {
      assertThat(System.nanoTime()).as("waiting for " + file).isLessThan(deadline);
      java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
    }
  }
}
