package dev.bobbin.node.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What tells one process from any later one given the same pid: the boot it ran in and its start
 * time in clock ticks since that boot ({@code /proc/PID/stat}, field 22), which never changes while
 * it lives and, unlike a wall-clock start time, does not move when the clock is set.
 *
 * @param startTicks -1 when the process had ended before its start could be read
 */
public record ProcessIdentity(long pid, long startTicks, String bootId) {
  private static final Path PROC = Path.of("/proc");

  /** The identity of the running process {@code pid}; its start is -1 when it is gone or a zombie. */
  public static ProcessIdentity of(long pid) {
    return new ProcessIdentity(pid, startTicks(pid).orElse(-1), currentBootId());
  }

  /** Whether this very process still runs (a zombie has ended: its exit is only waiting to be collected). */
  public boolean isRunning() {
    if (startTicks < 0 || !bootId.equals(currentBootId())) return false;
    return startTicks(pid).orElse(-2) == startTicks;
  }

  /** The start of a running, non-zombie process. */
  static OptionalLong startTicks(long pid) {
    try {
      String stat = Files.readString(PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
      return parseStart(stat);
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * The start field of a {@code stat} line, empty for a zombie. The name in parentheses may itself
   * hold spaces and parentheses, so fields are counted from the last ')': state is field 3 there.
   */
  static OptionalLong parseStart(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) return OptionalLong.empty();
    String[] f = stat.substring(close + 1).trim().split("\\s+");
    if (f.length < 20 || f[0].equals("Z") || f[0].equals("X")) return OptionalLong.empty();
    return OptionalLong.of(Long.parseLong(f[19]));
  }

  /** This boot's id; "" where the kernel does not say. */
  static String currentBootId() {
    try {
      return Files.readString(PROC.resolve("sys/kernel/random/boot_id"), StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      return "";
    }
  }

  /** The working directory of a process, where it may be read (same user, or root); empty otherwise. */
  public static Optional<Path> workingDirectory(long pid) {
    try {
      return Optional.of(Files.readSymbolicLink(PROC.resolve(Long.toString(pid)).resolve("cwd")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
