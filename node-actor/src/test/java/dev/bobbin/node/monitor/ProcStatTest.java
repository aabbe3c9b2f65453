package dev.bobbin.node.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcStatTest {
  @Test
  void readsTheFieldsAfterANameThatHoldsSpacesAndParentheses() {
    String line = "4242 (my (odd) name) S 4200 4242 4100 0 -1 4194560 900 0 0 0 250 75 0 0 20 0 3 0 12345 "
        + "2147483648 52000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0";
    ProcStat p = ProcStat.parse(line);
    assertThat(p).isEqualTo(new ProcStat(4242, 4200, 4242, 4100, "my (odd) name", 250, 75, 2147483648L, 52000));
  }

  @Test
  void refusesWhatIsNotAStatLine() {
    assertThatThrownBy(() -> ProcStat.parse("no parentheses here")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ProcStat.parse("1 (x) S 0")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsThisProcessFromProc() throws Exception {
    long self = ProcessHandle.current().pid();
    ProcStat p = ProcStat.parse(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat")));
    assertThat(p.pid()).isEqualTo(self);
    assertThat(p.rssPages()).isPositive();
    assertThat(p.vsizeBytes()).isPositive();
  }
}
