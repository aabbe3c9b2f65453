package dev.bobbin.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Every process the harness starts. {@link #stopAll} ends them and their descendants (the
 * NodeManagers' containers among them); a shutdown hook calls it, so none outlives the harness.
 */
final class Children {
  private record Child(String name, Process process, boolean graceful) {}

  private final List<Child> all = new CopyOnWriteArrayList<>();

  /**
   * Starts {@code command} with stdout and stderr appended to {@code log}. A {@code graceful} child
   * gets SIGTERM before SIGKILL on {@link #stopAll}, so a NodeManager can kill its containers.
   */
  Process start(String name, List<String> command, Path log, Path dir, boolean graceful) {
    try {
      Files.createDirectories(log.getParent());
      Files.writeString(log, "=== chaos: starting " + name + " at " + Instant.now() + ": " + shown(command) + "\n",
          StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
      Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
          .start();
      all.add(new Child(name, p, graceful));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  /** The command line with the classpath left out: it is long, and the same for every child. */
  private static String shown(List<String> command) {
    List<String> out = new ArrayList<>(command);
    int cp = out.indexOf("-cp");
    if (cp >= 0 && cp + 1 < out.size()) out.set(cp + 1, "<classpath>");
    return String.join(" ", out);
  }

  /** {@code kill -SIG pid}; false if it could not be delivered. */
  static boolean signal(Process p, String sig) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(p.pid())).redirectErrorStream(true).start();
      if (!kill.waitFor(5, TimeUnit.SECONDS)) {
        kill.destroyForcibly();
        return false;
      }
      return kill.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** SIGTERM, then SIGKILL after {@code grace} to the process and whatever it started. */
  static void stop(Process p, Duration grace) {
    List<ProcessHandle> family = family(p);
    p.destroy();
    awaitExit(List.of(p), grace);
    family.forEach(ProcessHandle::destroyForcibly);
  }

  /** Ends every child: graceful ones get SIGTERM first and share one grace period. Idempotent. */
  void stopAll(Duration grace) {
    List<ProcessHandle> family = new ArrayList<>();
    List<Process> graceful = new ArrayList<>();
    for (Child c : all) {
      if (!c.process.isAlive()) continue;
      family.addAll(family(c.process));
      if (c.graceful) {
        c.process.destroy();
        graceful.add(c.process);
      }
    }
    awaitExit(graceful, grace);
    family.forEach(ProcessHandle::destroyForcibly);
    awaitExit(all.stream().map(Child::process).toList(), Duration.ofSeconds(5));
  }

  private static List<ProcessHandle> family(Process p) {
    List<ProcessHandle> out = new ArrayList<>(p.descendants().toList());
    out.add(0, p.toHandle());
    return out;
  }

  private static void awaitExit(List<Process> processes, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    for (Process p : processes) {
      long left = deadline - System.nanoTime();
      if (left <= 0) return;
      try {
        p.waitFor(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
