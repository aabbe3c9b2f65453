package dev.bobbin.node.localizer;

import dev.bobbin.protocol.LocalResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;

/**
 * Whether a source is still what the application was submitted with. As YARN, a different
 * modification time means the resource changed; a different size does too. HTTP's
 * {@code Last-Modified} has whole seconds, so an HTTP source is compared at that precision.
 */
final class SourceCheck {
  private SourceCheck() {}

  /** @param secondsOnly whether the source reports its time in whole seconds */
  static void verify(LocalResource r, long actualSize, long actualTimestamp, boolean secondsOnly, long now)
      throws IOException {
    long expected = secondsOnly ? r.timestamp() / 1000 : r.timestamp();
    long was = secondsOnly ? actualTimestamp / 1000 : actualTimestamp;
    if (expected != was) {
      throw new IOException("Resource " + r.resource() + " changed on src filesystem - expected: \""
          + Instant.ofEpochMilli(r.timestamp()) + "\", was: \"" + Instant.ofEpochMilli(actualTimestamp)
          + "\", current time: \"" + Instant.ofEpochMilli(now) + "\"");
    }
    if (actualSize != r.size()) {
      throw new IOException("Resource " + r.resource() + " changed on src filesystem - expected size: "
          + r.size() + " bytes, was: " + actualSize + " bytes");
    }
  }

  /**
   * As YARN, a file may go into the PUBLIC cache only when every user of the node could read it
   * at its source: it is readable by others and every directory above it lets others through.
   * Anything else would hand one user's file to all.
   */
  static void requirePublic(LocalResource r, Path source) throws IOException {
    Path real = source.toRealPath();
    boolean open = Files.getPosixFilePermissions(real).contains(PosixFilePermission.OTHERS_READ);
    for (Path dir = real.getParent(); open && dir != null; dir = dir.getParent()) {
      open = Files.getPosixFilePermissions(dir).contains(PosixFilePermission.OTHERS_EXECUTE);
    }
    if (!open) {
      throw new IOException("Resource " + r.resource()
          + " is not publicly accessible and as such cannot be part of the public cache.");
    }
  }
}
