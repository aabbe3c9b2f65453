package dev.bobbin.node.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Reads processes from {@code /proc}, where Linux describes them. */
public final class ProcFs {
  private static final Path PROC = Path.of("/proc");

  private ProcFs() {}

  /** Whether this host has a {@code /proc} the monitor can read. */
  public static boolean available() {
    return Files.isReadable(PROC.resolve("self").resolve("stat"));
  }

  /** Every process readable now; one that ends while it is read is left out. */
  public static List<ProcStat> all() {
    List<ProcStat> out = new ArrayList<>();
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC, p -> isPid(p.getFileName().toString()))) {
      for (Path dir : dirs) {
        try {
          out.add(ProcStat.parse(Files.readString(dir.resolve("stat"), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException | IllegalArgumentException e) {
          // Ended between the listing and the read, or not readable as a process.
        } catch (IOException e) {
          // Not ours to read (another user's, under hidepid): it belongs to no container of ours.
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot list /proc: " + e.getMessage(), e);
    }
    return out;
  }

  /** The process's command line, its arguments joined by spaces; "" once it has ended. */
  public static String commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("cmdline"));
      return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').trim();
    } catch (IOException e) {
      return "";
    }
  }

  /** {@code getconf NAME}, or {@code fallback} where it cannot be asked. */
  public static long conf(String name, long fallback) {
    try {
      Process p = new ProcessBuilder("getconf", name).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) return fallback;
      return Long.parseLong(out);
    } catch (IOException | NumberFormatException e) {
      return fallback;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return fallback;
    }
  }

  private static boolean isPid(String name) {
    if (name.isEmpty()) return false;
    for (int i = 0; i < name.length(); i++) if (!Character.isDigit(name.charAt(i))) return false;
    return true;
  }
}
