package dev.bobbin.node.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a look at one directory found: whether the NodeManager can use it ({@code accessProblem}
 * empty when it can read, write and search it) and the space on its disk.
 */
public record DirProbe(Path dir, String accessProblem, long usableBytes, long totalBytes) {
  /** Creates the directory when it is missing, as YARN does with its local and log dirs, then looks. */
  public static DirProbe of(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException | SecurityException e) {
      return denied(dir, "cannot be created: " + e);
    }
    if (!Files.isDirectory(dir)) return denied(dir, "is not a directory");
    if (!Files.isReadable(dir)) return denied(dir, "directory is not readable");
    if (!Files.isWritable(dir)) return denied(dir, "directory is not writable");
    if (!Files.isExecutable(dir)) return denied(dir, "directory is not searchable");
    return new DirProbe(dir, "", dir.toFile().getUsableSpace(), dir.toFile().getTotalSpace());
  }

  private static DirProbe denied(Path dir, String problem) {
    return new DirProbe(dir, problem, 0, 0);
  }
}
