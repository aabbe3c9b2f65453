package dev.bobbin.node.cgroups;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/** Reading and writing the small files of a cgroup directory. */
final class CgroupFiles {
  private CgroupFiles() {}

  static void write(Path file, String value) throws IOException {
    try {
      Files.writeString(file, value);
    } catch (IOException e) {
      throw new IOException("cannot write " + value + " to " + file + ": " + e.getMessage(), e);
    }
  }

  /** A file holding one number; empty when it is missing or holds none (as v2's {@code max}). */
  static OptionalLong number(Path file) {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(file).trim()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** The value of {@code key} in a file of {@code key value} lines, as {@code memory.events}. */
  static OptionalLong keyed(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        String[] kv = line.trim().split("\\s+");
        if (kv.length == 2 && kv[0].equals(key)) return OptionalLong.of(Long.parseLong(kv[1]));
      }
    } catch (IOException | NumberFormatException e) {
      // Missing or unreadable: an older kernel's.
    }
    return OptionalLong.empty();
  }

  /** The blank-separated words of a file, as {@code cgroup.controllers}; none when it is missing. */
  static Set<String> words(Path file) {
    try {
      return new TreeSet<>(Set.of(Files.readString(file).trim().split("\\s+")));
    } catch (IOException e) {
      return Set.of();
    }
  }

  /** The process ids listed in a {@code cgroup.procs} file. */
  static Set<Long> pids(Path procs) {
    Set<Long> out = new LinkedHashSet<>();
    try {
      for (String line : Files.readAllLines(procs)) {
        if (!line.isBlank()) out.add(Long.parseLong(line.trim()));
      }
    } catch (IOException | NumberFormatException e) {
      // Gone with its cgroup.
    }
    return out;
  }

  /** The child cgroups of {@code dir}, by name. */
  static Set<String> children(Path dir) {
    Set<String> out = new TreeSet<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, Files::isDirectory)) {
      s.forEach(p -> out.add(p.getFileName().toString()));
    } catch (IOException e) {
      // No children to list.
    }
    return out;
  }

  /**
   * Removes an empty cgroup (its control files go with it); false while processes or child cgroups
   * keep it. One already gone counts as removed.
   */
  static boolean remove(Path dir) {
    try {
      Files.deleteIfExists(dir);
      return true;
    } catch (NoSuchFileException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Makes {@code dir} and the directories above it down from {@code base}, which must exist. */
  static void makeBelow(Path base, Path dir) throws IOException {
    if (!Files.isDirectory(base)) throw new IOException(base + " is not a directory");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IOException("cannot create " + dir + ": " + e, e);
    }
  }
}
