package dev.bobbin.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.launcher.cli.ClientContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What {@code bobbin} promises every command: help, and usage errors that name the problem. */
class MainTest {
  private static final List<String> COMMANDS = List.of("quickstart", "rm", "nm", "submit", "status", "kill", "apps",
      "nodes", "logs", "admin", "chaos", "bench", "completion", "help");

  record Result(int exitCode, String out, String err) {}

  /** Runs {@code bobbin argv} in this JVM; its exit code and what it printed. */
  static Result run(String... argv) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Main.run(List.of(argv), o, e, ClientContext.system());
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"help", "--help", "-h"})
  void theHelpListsEveryCommand(String help) {
    Result result = run(help);

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("Usage: bobbin");
    for (String command : COMMANDS) assertThat(result.out()).as(command).containsPattern("(?m)^  " + command + " ");
    assertThat(result.out()).contains("64", "usage error", "78", "bad setting");
  }

  @ParameterizedTest
  @ValueSource(strings = {"quickstart", "rm", "nm", "submit", "status", "kill", "apps", "nodes", "logs", "admin",
      "admin refresh-queues", "chaos", "bench", "completion", "help"})
  void everyCommandAnswersHelp(String command) {
    List<String> argv = new ArrayList<>(List.of(command.split(" ")));
    argv.add("--help");

    Result result = run(argv.toArray(String[]::new));

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).startsWith("Usage: bobbin " + command);
    assertThat(result.err()).isEmpty();
  }

  @Test
  void helpNamesACommandToExplain() {
    Result result = run("help", "nm");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("Usage: bobbin nm").contains("--work-dir=DIR", "--rm=URL");
  }

  @ParameterizedTest
  @ValueSource(strings = {"quickstart", "rm", "nm", "submit", "status", "kill", "apps", "nodes",
      "logs", "admin refresh-queues", "completion"})
  void anUnknownOptionIsAUsageErrorThatNamesIt(String command) {
    List<String> argv = new ArrayList<>(List.of(command.split(" ")));
    argv.add("--bogus");

    Result result = run(argv.toArray(String[]::new));

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Unknown option: '--bogus'\n").contains("Usage: bobbin " + command);
    assertThat(result.out()).isEmpty();
  }

  @Test
  void aBadValueIsAUsageErrorThatNamesTheOptionAndTheValue() {
    Result result = run("rm", "--http-port", "eighty");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Invalid value for option '--http-port': 'eighty' is not an int");
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    Result result = run("frobnicate");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Unknown command 'frobnicate'\n").contains("Usage: bobbin");
  }

  @Test
  void noCommandIsAUsageError() {
    Result result = run();

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).startsWith("Missing command\n").contains("Commands:");
  }

  @ParameterizedTest
  @ValueSource(strings = {"chaos", "bench"})
  void theToolsRunThroughTheScriptFromTheirModules(String tool) {
    Result result = run(tool, "--members", "1");

    assertThat(result.exitCode()).isEqualTo(64);
    assertThat(result.err()).contains("bin/bobbin " + tool, "the " + tool + " module");
  }

  @Test
  void completionIsABashScriptForEveryCommandAndOption() {
    Result result = run("completion");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).startsWith("#!/usr/bin/env bash").contains("complete -F");
    for (String command : COMMANDS) assertThat(result.out()).as(command).contains(command);
    assertThat(result.out()).contains("refresh-queues", "--allocation-file", "--work-dir", "--shell");
  }
}
