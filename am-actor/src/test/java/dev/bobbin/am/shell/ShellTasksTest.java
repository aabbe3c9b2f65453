package dev.bobbin.am.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import org.junit.jupiter.api.Test;

class ShellTasksTest {

  @Test
  void tasksTakeContainersInOrderAndExtraContainersAreExcess() {
    ShellTasks t = ShellTasks.of(2, 3);
    ShellTasks.Step a = t.assign("c2");
    ShellTasks.Step b = a.tasks().assign("c3");
    ShellTasks.Step c = b.tasks().assign("c4");
    assertThat(a.shellId()).isEqualTo(1);
    assertThat(b.shellId()).isEqualTo(2);
    assertThat(c.verdict()).isEqualTo(ShellTasks.Verdict.EXCESS);
    assertThat(c.tasks().waitingCount()).isZero();
  }

  @Test
  void diagnosticsNameEachFailedContainerAndItsExitCode() {
    ShellTasks t = ShellTasks.of(3, 3).assign("c2").tasks().assign("c3").tasks().assign("c4").tasks();
    t = t.completed(done("c2", 0)).tasks();
    t = t.completed(done("c3", 1)).tasks();
    assertThat(t.isDone()).isFalse();
    t = t.completed(done("c4", 137)).tasks();

    assertThat(t.isDone()).isTrue();
    assertThat(t.diagnostics()).isEqualTo("2 of 3 containers failed: c3 exited 1; c4 exited 137");
  }

  @Test
  void lostAndPreemptedContainersAreRetriedAtMostMaxTimes() {
    ShellTasks t = ShellTasks.of(1, 2);
    ShellTasks.Step s = t.assign("c2").tasks().completed(done("c2", ExitStatus.ABORTED));
    assertThat(s.verdict()).isEqualTo(ShellTasks.Verdict.RETRY);
    s = s.tasks().assign("c3").tasks().completed(done("c3", ExitStatus.PREEMPTED));
    assertThat(s.verdict()).isEqualTo(ShellTasks.Verdict.RETRY);
    assertThat(s.shellId()).isEqualTo(1);
    s = s.tasks().assign("c4").tasks().completed(done("c4", ExitStatus.ABORTED));

    assertThat(s.verdict()).isEqualTo(ShellTasks.Verdict.FAILED);
    assertThat(s.tasks().diagnostics()).isEqualTo("1 of 1 containers failed: c4 exited -100");
  }

  @Test
  void aContainerThatWouldNotStartIsRetriedAndLateNewsIsIgnored() {
    ShellTasks t = ShellTasks.of(1, 1).assign("c2").tasks();
    ShellTasks.Step s = t.startFailed("c2", "disk full");
    assertThat(s.verdict()).isEqualTo(ShellTasks.Verdict.RETRY);
    assertThat(s.tasks().completed(done("c2", ExitStatus.ABORTED)).verdict()).isEqualTo(ShellTasks.Verdict.IGNORED);
    ShellTasks.Step again = s.tasks().assign("c3").tasks().startFailed("c3", "disk full");
    assertThat(again.tasks().diagnostics()).isEqualTo("1 of 1 containers failed: c3 failed to start: disk full");
  }

  @Test
  void aNonZeroExitIsNotRetried() {
    ShellTasks.Step s = ShellTasks.of(1, 3).assign("c2").tasks().completed(done("c2", 2));
    assertThat(s.verdict()).isEqualTo(ShellTasks.Verdict.FAILED);
    assertThat(s.tasks().progress()).isEqualTo(1f);
  }

  private static ContainerStatus done(String id, int exit) {
    return ContainerStatus.completed(id, exit, "", null);
  }
}
