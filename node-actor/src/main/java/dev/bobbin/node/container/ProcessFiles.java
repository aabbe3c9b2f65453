package dev.bobbin.node.container;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The files a container's launch script writes about its own process, in its work directory (the
 * one directory both the NodeManager and a container run as its user may write): its pid as it
 * starts ({@code <container>.pid}) and its exit code as it ends ({@code <container>.pid.exitcode}),
 * each written to a temporary name and renamed, so that a reader sees the whole value or nothing.
 * They tell a restarted NodeManager what became of a container while no agent watched it.
 */
public final class ProcessFiles {
  private static final int MAX_BYTES = 64;
  /**
   * The exit code of a container whose end was not seen and left no exit code, as YARN's
   * ContainerExecutor.ExitCode.LOST.
   */
  public static final int LOST = 154;

  private ProcessFiles() {}

  public static Path pidFile(Path workDir, String containerId) {
    return workDir.resolve(containerId + ".pid");
  }

  public static Path exitCodeFile(Path workDir, String containerId) {
    return workDir.resolve(containerId + ".pid.exitcode");
  }

  /** The exit code the container's script wrote as it ended; empty while it runs, or when it was killed outright. */
  public static OptionalInt exitCode(Path workDir, String containerId) {
    String s = readSmall(exitCodeFile(workDir, containerId));
    try {
      return s == null ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(s));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** The pid the container's script wrote as it started; empty when it never started. */
  public static OptionalLong pid(Path workDir, String containerId) {
    String s = readSmall(pidFile(workDir, containerId));
    try {
      return s == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * A few bytes of a regular file, trimmed; null when there is none. Never through a link: the
   * directory belongs to the container, which may have put one to anything there.
   */
  private static String readSmall(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) return null;
    try (SeekableByteChannel f = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buf = ByteBuffer.allocate(MAX_BYTES);
      while (buf.hasRemaining() && f.read(buf) > 0) {
        // Reads up to MAX_BYTES.
      }
      return new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
    } catch (IOException e) {
      return null;
    }
  }
}
