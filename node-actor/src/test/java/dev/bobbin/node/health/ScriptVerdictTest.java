package dev.bobbin.node.health;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScriptVerdictTest {
  private static final String SCRIPT = "/etc/bobbin/health.sh";

  private static NodeHealth judge(ScriptOutcome outcome) {
    return ScriptVerdict.judge(SCRIPT, outcome, 42);
  }

  @Test
  void aLineStartingWithErrorMakesTheNodeUnhealthyWithTheOutputAsItsReport() {
    NodeHealth h = judge(new ScriptOutcome.Exited(0, "checking disks\nERROR /data1 is read-only\n"));
    assertThat(h.healthy()).isFalse();
    assertThat(h.report()).isEqualTo("checking disks\nERROR /data1 is read-only");
    assertThat(h.checkedAt()).isEqualTo(42);
  }

  @Test
  void errorElsewhereInALineIsNotAVerdict() {
    assertThat(judge(new ScriptOutcome.Exited(0, "no ERROR here\n  ERROR indented\nerror lower case")).healthy())
        .isTrue();
  }

  @Test
  void quietOrCleanOutputIsHealthyWithNoReport() {
    assertThat(judge(new ScriptOutcome.Exited(0, ""))).isEqualTo(NodeHealth.healthy(42));
    assertThat(judge(new ScriptOutcome.Exited(0, "OK all good\n"))).isEqualTo(NodeHealth.healthy(42));
  }

  @Test
  void aScriptThatExitsNonZeroIsTakenAsBrokenAndItsOutputIgnored() {
    assertThat(judge(new ScriptOutcome.Exited(1, ""))).isEqualTo(NodeHealth.healthy(42));
    assertThat(judge(new ScriptOutcome.Exited(2, "ERROR syntax error near line 3"))).isEqualTo(NodeHealth.healthy(42));
  }

  @Test
  void aTimeoutMakesTheNodeUnhealthyAndSaysSo() {
    NodeHealth h = judge(new ScriptOutcome.TimedOut(2000));
    assertThat(h.healthy()).isFalse();
    assertThat(h.report()).isEqualTo("Health script /etc/bobbin/health.sh timed out after 2000 ms");
  }

  @Test
  void aScriptThatCannotRunMakesTheNodeUnhealthyNamingTheError() {
    NodeHealth h = judge(new ScriptOutcome.Failed("Cannot run program: error=2, No such file or directory"));
    assertThat(h.healthy()).isFalse();
    assertThat(h.report()).startsWith("Health script /etc/bobbin/health.sh could not run: ")
        .endsWith("No such file or directory");
  }

  @Test
  void aVeryLongReportIsCutAndSaysByHowMuch() {
    String output = "ERROR disk\n" + "x".repeat(ScriptVerdict.MAX_REPORT_CHARS);
    NodeHealth h = judge(new ScriptOutcome.Exited(0, output));
    assertThat(h.report()).startsWith("ERROR disk\nxxx").endsWith("... (11 more characters)");
    assertThat(h.report().length()).isLessThan(ScriptVerdict.MAX_REPORT_CHARS + 40);
  }
}
