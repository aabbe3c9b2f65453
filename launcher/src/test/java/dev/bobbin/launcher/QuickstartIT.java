package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart end to end: RM, two NMs, a distributed-shell AM and its containers as real processes. */
class QuickstartIT {

  @Test
  void distributedShellSucceedsAndEveryContainerPrintsItsOwnId(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    var outcome = QuickstartCommand.runIn(dir, new PrintStream(buf, true, StandardCharsets.UTF_8), QuickstartCommand.SHELL);
    String printed = buf.toString(StandardCharsets.UTF_8);
    assertThat(outcome.succeeded()).as(printed).isTrue();
    assertThat(outcome.containerOutput()).hasSize(QuickstartCommand.CONTAINERS);
    outcome.containerOutput().forEach((id, text) -> assertThat(text.strip()).isEqualTo("hello from " + id));
    assertThat(printed).contains("FINISHED with final status SUCCEEDED").doesNotContain("failed:");
  }

  @Test
  void aFailingCommandFailsTheApplicationAndNamesTheContainersAndExitCodes(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    var outcome = QuickstartCommand.runIn(dir, new PrintStream(buf, true, StandardCharsets.UTF_8), "exit 3");
    assertThat(outcome.state()).as(buf.toString(StandardCharsets.UTF_8)).isEqualTo("FINISHED");
    assertThat(outcome.finalStatus()).isEqualTo("FAILED");
    assertThat(outcome.diagnostics()).contains("3 of 3").contains("container_").contains("exited 3");
  }
}
