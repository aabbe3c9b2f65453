package dev.bobbin.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Short system commands ({@code ip}, {@code tc}, {@code iptables}, {@code kill}) run to completion. */
final class Commands {
  private static final long TIMEOUT_SECONDS = 10;

  /** How a command ended: its exit status (-1 if it could not run or timed out) and its output. */
  record Outcome(int status, String output) {
    boolean ok() {
      return status == 0;
    }
  }

  private Commands() {}

  static Outcome run(List<String> command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
      // The output is short: read it all, then the command has ended or closed its side.
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Outcome(-1, String.join(" ", command) + " did not end within " + TIMEOUT_SECONDS + "s");
      }
      return new Outcome(p.exitValue(), out);
    } catch (IOException e) {
      return new Outcome(-1, "could not run " + command.get(0) + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(-1, "interrupted");
    }
  }

  static Outcome run(String... command) {
    return run(List.of(command));
  }

  /** Runs {@code command} and throws with its output when it fails. */
  static String must(String... command) throws NetworkException {
    Outcome o = run(command);
    if (!o.ok()) throw new NetworkException(String.join(" ", command) + " failed (" + o.status() + "): " + o.output());
    return o.output();
  }

  /** {@code name}'s executable on PATH, or in /usr/sbin or /sbin where root's tools live. */
  static java.util.Optional<String> locate(String name) {
    String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
    for (String dir : path.split(":")) {
      if (dir.isBlank()) continue;
      java.nio.file.Path p = java.nio.file.Path.of(dir, name);
      if (java.nio.file.Files.isExecutable(p)) return java.util.Optional.of(p.toString());
    }
    return java.util.Optional.empty();
  }
}
