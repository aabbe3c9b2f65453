package dev.bobbin.node.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProcessIdentityTest {
  @Test
  void theStartIsField22CountedFromTheLastParenthesis() {
    String stat = "4242 (we (ird) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 1000 10 "
        + "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0";
    assertThat(ProcessIdentity.parseStart(stat)).isEqualTo(OptionalLong.of(987654));
  }

  @Test
  void aZombieHasNoStartForItHasEnded() {
    String stat = "4242 (sleep) Z 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 0 0";
    assertThat(ProcessIdentity.parseStart(stat)).isEmpty();
  }

  @Test
  void thisProcessIsItselfAndNotAProcessStartedAtAnotherTimeWithItsPid() {
    ProcessIdentity self = ProcessIdentity.of(ProcessHandle.current().pid());
    assertThat(self.startTicks()).isPositive();
    assertThat(self.isRunning()).isTrue();
    assertThat(new ProcessIdentity(self.pid(), self.startTicks() + 1, self.bootId()).isRunning()).isFalse();
    assertThat(new ProcessIdentity(self.pid(), self.startTicks(), "another-boot").isRunning()).isFalse();
  }

  @Test
  void anEndedProcessIsNotRunning() throws Exception {
    Process p = new ProcessBuilder("true").start();
    long pid = p.pid();
    ProcessIdentity whileAlive = new ProcessIdentity(pid, 1, ProcessIdentity.currentBootId());
    p.waitFor();
    assertThat(ProcessIdentity.of(pid).startTicks()).isEqualTo(-1);
    assertThat(whileAlive.isRunning()).isFalse();
  }
}
