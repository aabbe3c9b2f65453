package dev.bobbin.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The cluster's node credential: a join token that every NodeManager presents to register and
 * heartbeat. An RM member makes one in its data directory on first start (readable by its owner
 * only); the members of a cluster share one file, and each NodeManager is given a copy.
 */
public final class NodeCredential {
  public static final String FILE_NAME = "node-credential";
  private static final int MIN_BYTES = 16;
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  private NodeCredential() {}

  /**
   * The credential in {@code file}.
   *
   * @param key the setting that named the file, for the message when it cannot be used
   */
  public static String read(Path file, String key) {
    String value;
    try {
      value = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new SettingsException(key, "cannot read the node credential " + file + ": " + e);
    }
    if (!wellFormed(value)) {
      throw new SettingsException(key, file + " holds no node credential (at least " + MIN_BYTES
          + " bytes, base64url, as an RM member writes into its data directory as " + FILE_NAME + ")");
    }
    return value;
  }

  /**
   * The credential in {@code file}, made there first if there is none.
   *
   * @return the credential, and whether this call made it
   */
  public static Loaded readOrCreate(Path file, String key) {
    if (Files.exists(file)) return new Loaded(read(file, key), false);
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    String value = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), FILE_NAME, ".tmp");
      ownerOnly(tmp);
      Files.writeString(tmp, value + "\n", StandardCharsets.UTF_8);
      try {
        // A member starting on the same directory at the same moment may have won: its file stays.
        Files.move(tmp, file);
      } catch (FileAlreadyExistsException e) {
        Files.deleteIfExists(tmp);
        return new Loaded(read(file, key), false);
      }
    } catch (IOException e) {
      throw new SettingsException(key, "cannot write a node credential to " + file + ": " + e);
    }
    return new Loaded(value, true);
  }

  /** A credential and whether it was just made. */
  public record Loaded(String value, boolean created) {
    @Override
    public String toString() {
      return "NodeCredential.Loaded[created=" + created + "]";
    }
  }

  private static boolean wellFormed(String value) {
    try {
      return Base64.getUrlDecoder().decode(value).length >= MIN_BYTES;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void ownerOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, OWNER_ONLY);
    } catch (UnsupportedOperationException e) {
      // A file system without POSIX permissions: its own access control applies.
    }
  }
}
