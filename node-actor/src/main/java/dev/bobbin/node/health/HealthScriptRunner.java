package dev.bobbin.node.health;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the health script once with its options and a timeout. Its standard output goes to a file
 * rather than a pipe, so that a script (or a child it leaves behind) that keeps writing can never
 * block the run; a script past its timeout is killed with every process it started. Blocks.
 */
public final class HealthScriptRunner {
  /** More than any health report needs; the rest of a longer output is not read. */
  static final int MAX_OUTPUT_BYTES = 64 * 1024;

  private final List<String> command;
  private final Duration timeout;

  public HealthScriptRunner(Path script, List<String> opts, Duration timeout) {
    this.command = new ArrayList<>();
    command.add(script.toString());
    command.addAll(opts);
    this.timeout = timeout;
  }

  public ScriptOutcome run() {
    Path output = null;
    Process process = null;
    try {
      output = Files.createTempFile("bobbin-health-", ".out");
      process = new ProcessBuilder(command).redirectOutput(output.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      process.getOutputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        killTree(process);
        return new ScriptOutcome.TimedOut(timeout.toMillis());
      }
      return new ScriptOutcome.Exited(process.exitValue(), read(output));
    } catch (IOException e) {
      return new ScriptOutcome.Failed(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      killTree(process);
      return new ScriptOutcome.Failed("interrupted while waiting for it");
    } finally {
      if (output != null) output.toFile().delete();
    }
  }

  private static String read(Path output) throws IOException {
    try (InputStream in = Files.newInputStream(output)) {
      return new String(in.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
    }
  }

  private static void killTree(Process process) {
    if (process == null) return;
    // Children first: once the script is gone they would be another parent's.
    List<ProcessHandle> children = process.descendants().toList();
    children.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}
