package dev.bobbin.chaos;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reading the children's log files. */
final class Logs {
  private static final int TAIL_BYTES = 64 * 1024;

  private Logs() {}

  static String tail(Path log, int lines) {
    List<String> all = from(log, Math.max(0, size(log) - TAIL_BYTES)).lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  static long size(Path log) {
    try {
      return Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  /** The text written to {@code log} since byte {@code offset}. */
  static String from(Path log, long offset) {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long len = f.length();
      if (offset >= len) return "";
      f.seek(offset);
      byte[] buf = new byte[(int) Math.min(len - offset, 16L * 1024 * 1024)];
      f.readFully(buf);
      return new String(buf, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
