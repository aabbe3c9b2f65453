package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.launcher.cli.ClientContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart end to end: RM, two NMs, a distributed-shell AM and its containers as real processes. */
class QuickstartIT {
  private static final QuickstartCommand.Afterwards NOTHING_MORE = (rmUrl, stop) -> { };

  @Test
  void distributedShellSucceedsAndEveryContainerPrintsItsOwnId(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    var outcome = QuickstartCommand.runIn(dir, new PrintStream(buf, true, StandardCharsets.UTF_8), QuickstartCommand.SHELL,
        NOTHING_MORE);
    String printed = buf.toString(StandardCharsets.UTF_8);
    assertThat(outcome.succeeded()).as(printed).isTrue();
    assertThat(outcome.containerOutput()).hasSize(QuickstartCommand.CONTAINERS);
    outcome.containerOutput().forEach((id, text) -> assertThat(text.strip()).isEqualTo("hello from " + id));
    assertThat(printed).contains("FINISHED with final status SUCCEEDED").doesNotContain("failed:");
  }

  @Test
  void aFailingCommandFailsTheApplicationAndNamesTheContainersAndExitCodes(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    var outcome = QuickstartCommand.runIn(dir, new PrintStream(buf, true, StandardCharsets.UTF_8), "exit 3", NOTHING_MORE);
    assertThat(outcome.state()).as(buf.toString(StandardCharsets.UTF_8)).isEqualTo("FINISHED");
    assertThat(outcome.finalStatus()).isEqualTo("FAILED");
    assertThat(outcome.diagnostics()).contains("3 of 3").contains("container_").contains("exited 3");
  }

  @Test
  void keptRunningTheClusterTakesMoreApplicationsFromTheClient(@TempDir Path dir) throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
    AtomicInteger submitted = new AtomicInteger(-1);

    var outcome = QuickstartCommand.runIn(dir, out, QuickstartCommand.SHELL, (rmUrl, stop) -> submitted.set(
        Main.run(List.of("submit", "--rm", rmUrl, "--shell", "true", "--containers", "2", "--memory", "256",
            "--am-memory", "512", "--wait"), out, out, ClientContext.system())));

    String printed = buf.toString(StandardCharsets.UTF_8);
    assertThat(outcome.succeeded()).as(printed).isTrue();
    assertThat(submitted.get()).as(printed).isZero();
    assertThat(printed).containsPattern("Application application_\\d+_\\d+ ended: state FINISHED, final status SUCCEEDED");
  }
}
