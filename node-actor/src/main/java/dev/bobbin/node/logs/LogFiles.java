package dev.bobbin.node.logs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A container's log files: the regular files directly in its log directory, on the node or where
 * they were aggregated. Links are never followed: a container owns its log directory and could put
 * a link to anything there, which the NodeManager (maybe root) would otherwise read for it.
 */
public final class LogFiles {
  private LogFiles() {}

  /** One log file, as listed. */
  public record LogFile(String name, long size, Instant lastModified) {}

  /** The log files in {@code dir}, by name; none when it is not there. */
  public static List<LogFile> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) return List.of();
    List<LogFile> files = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      for (Path p : s) {
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (a.isRegularFile()) {
          files.add(new LogFile(p.getFileName().toString(), a.size(), a.lastModifiedTime().toInstant()));
        }
      }
    }
    files.sort(Comparator.comparing(LogFile::name));
    return files;
  }

  /** Whether {@code name} can name a file directly in a log directory, and nothing outside it. */
  public static boolean isValidName(String name) {
    return !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0
        && name.indexOf('\\') < 0 && name.indexOf('\0') < 0;
  }

  /**
   * The log file {@code name} in {@code dir}, opened without following a link (checked and opened
   * that way: a container could swap the file for a link between a check and the read); empty when
   * no such regular file is there.
   *
   * @throws IllegalArgumentException when {@code name} is not {@linkplain #isValidName valid}
   */
  public static Optional<InputStream> open(Path dir, String name) {
    if (!isValidName(name)) throw new IllegalArgumentException("Invalid log file name: " + name);
    Path file = dir.resolve(name);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
    try {
      return Optional.of(Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
