package dev.bobbin.launcher.cli;

import dev.bobbin.launcher.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs a {@code bobbin} command in-process with a test environment and captures what it prints. */
final class Cli {
  static final String USER = "alice";
  static final String AM_CLASSPATH = "/opt/bobbin/lib/bobbin-launcher.jar:/opt/bobbin/lib/jackson.jar";

  record Result(int exitCode, String out, String err) {}

  private Cli() {}

  static ClientContext context(String rmFromEnv) {
    return context(rmFromEnv, null);
  }

  static ClientContext context(String rmFromEnv, String tokenFromEnv) {
    return new ClientContext(
        rmFromEnv, tokenFromEnv, USER, AM_CLASSPATH, Duration.ZERO, Duration.ofSeconds(5),
        ClientContext.transport(Duration.ofSeconds(5)));
  }

  static Result run(String command, String... args) {
    return runWithEnv(null, command, args);
  }

  static Result runWithEnv(String rmFromEnv, String command, String... args) {
    return runIn(context(rmFromEnv), command, args);
  }

  static Result runIn(ClientContext context, String command, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      List<String> argv = new ArrayList<>(List.of(command));
      argv.addAll(List.of(args));
      code = Main.run(argv, o, e, context);
    }
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
