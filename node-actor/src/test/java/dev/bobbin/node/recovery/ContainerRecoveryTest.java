package dev.bobbin.node.recovery;

import static dev.bobbin.node.recovery.FileStateStoreTest.CID;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.ProcessFiles;
import dev.bobbin.node.container.ProcessIdentity;
import dev.bobbin.protocol.ExitStatus;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each way a recorded container can be found after a restart, against a host the test describes. */
class ContainerRecoveryTest {
  static final ProcessIdentity ROOT = new ProcessIdentity(4242, 987654, "boot-1");
  final StoredContainer accepted = FileStateStoreTest.accepted(CID);
  final StoredContainer launched = accepted.launched(ROOT);
  final Path workDir = Path.of(accepted.workDir());

  /** A host where {@code running} processes run, with the files and working directories given. */
  record TestingHost(Set<ProcessIdentity> running, OptionalInt exitCode, OptionalLong pidFile, Path cwd)
      implements ContainerRecovery.Host {
    static TestingHost empty() {
      return new TestingHost(Set.of(), OptionalInt.empty(), OptionalLong.empty(), null);
    }

    TestingHost withRunning(ProcessIdentity p) {
      return new TestingHost(Set.of(p), exitCode, pidFile, cwd);
    }

    TestingHost withExitCode(int code) {
      return new TestingHost(running, OptionalInt.of(code), pidFile, cwd);
    }

    TestingHost withPidFile(long pid, Path cwd) {
      return new TestingHost(running, exitCode, OptionalLong.of(pid), cwd);
    }

    @Override
    public OptionalInt exitCode(Path workDir, String containerId) {
      return exitCode;
    }

    @Override
    public OptionalLong pidFromFile(Path workDir, String containerId) {
      return pidFile;
    }

    @Override
    public boolean running(ProcessIdentity process) {
      return running.contains(process);
    }

    @Override
    public ProcessIdentity identify(long pid) {
      return running.stream().filter(p -> p.pid() == pid).findFirst().orElse(new ProcessIdentity(pid, -1, "boot-1"));
    }

    @Override
    public Optional<Path> workingDirectory(long pid) {
      return Optional.ofNullable(cwd);
    }
  }

  @Test
  void theRecordedProcessStillRunningIsWatchedAgain() {
    assertThat(ContainerRecovery.of(launched, TestingHost.empty().withRunning(ROOT)))
        .isEqualTo(new ContainerRecovery.Running(launched, ROOT));
  }

  @Test
  void anotherProcessWithTheSamePidIsNotTheContainer() {
    ProcessIdentity reused = new ProcessIdentity(ROOT.pid(), ROOT.startTicks() + 5000, ROOT.bootId());
    var outcome = (ContainerRecovery.Ended) ContainerRecovery.of(launched, TestingHost.empty().withRunning(reused));
    assertThat(outcome.exitStatus()).isEqualTo(ProcessFiles.LOST);
    assertThat(outcome.killed()).isFalse();
    assertThat(outcome.diagnostics()).contains(CID).contains("4242").contains("left no exit code").contains("154");
  }

  @Test
  void anEndWhileNoNodeManagerWatchedReportsTheExitCodeTheScriptWrote() {
    assertThat(ContainerRecovery.of(launched, TestingHost.empty().withExitCode(0)))
        .isEqualTo(new ContainerRecovery.Ended(launched, 0, "", false));
    var failed = (ContainerRecovery.Ended) ContainerRecovery.of(launched, TestingHost.empty().withExitCode(3));
    assertThat(failed.exitStatus()).isEqualTo(3);
    assertThat(failed.diagnostics()).startsWith("Container exited with a non-zero exit code 3.");
  }

  @Test
  void aContainerBeingKilledEndsWithItsKillReasonWhetherOrNotItLeftAnExitCode() {
    StoredContainer killing = launched.killing(KillReason.BY_RESOURCEMANAGER, "Container killed by the ResourceManager.");
    assertThat(ContainerRecovery.of(killing, TestingHost.empty().withExitCode(143))).isEqualTo(
        new ContainerRecovery.Ended(killing, ExitStatus.KILLED_BY_RESOURCEMANAGER,
            "Container killed by the ResourceManager.\nContainer killed on request. Exit code is 143", true));
    assertThat(ContainerRecovery.of(killing, TestingHost.empty())).isEqualTo(new ContainerRecovery.Ended(
        killing, ExitStatus.KILLED_BY_RESOURCEMANAGER, "Container killed by the ResourceManager.", true));
    assertThat(ContainerRecovery.of(killing, TestingHost.empty().withRunning(ROOT)))
        .as("still running: the kill goes on").isEqualTo(new ContainerRecovery.Running(killing, ROOT));
  }

  @Test
  void aLaunchNotYetRecordedIsFoundByThePidFileWhenThatProcessRunsInTheContainersWorkDir() {
    TestingHost host = TestingHost.empty().withRunning(ROOT).withPidFile(ROOT.pid(), workDir);
    assertThat(ContainerRecovery.of(accepted, host)).isEqualTo(new ContainerRecovery.Running(accepted, ROOT));

    TestingHost elsewhere = TestingHost.empty().withRunning(ROOT).withPidFile(ROOT.pid(), Path.of("/home/bob"));
    var notOurs = (ContainerRecovery.Ended) ContainerRecovery.of(accepted, elsewhere);
    assertThat(notOurs.exitStatus()).isEqualTo(ProcessFiles.LOST);
  }

  @Test
  void aContainerWhoseProcessNeverStartedIsLost() {
    var outcome = (ContainerRecovery.Ended) ContainerRecovery.of(accepted, TestingHost.empty());
    assertThat(outcome.exitStatus()).isEqualTo(ProcessFiles.LOST);
    assertThat(outcome.diagnostics()).contains("stopped before the container's process started");
  }

  @Test
  void anEndAlreadyRecordedIsReportedAsItWas() {
    StoredContainer done = launched.completed(launched.record().finished(7, "boom", false, 5000));
    assertThat(ContainerRecovery.of(done, TestingHost.empty().withRunning(ROOT)))
        .isEqualTo(new ContainerRecovery.Reported(done));
  }
}
