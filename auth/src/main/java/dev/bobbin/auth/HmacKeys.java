package dev.bobbin.auth;

import dev.bobbin.config.SettingsException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * HMAC keys for HS256 tokens, kept as base64 text in a file: {@code head -c 32 /dev/urandom | base64
 * > key}. At least 32 bytes, as HS256 needs.
 */
public final class HmacKeys {
  public static final int MIN_BYTES = 32;

  private HmacKeys() {}

  /** @param key the setting that names the file, for the error message */
  public static byte[] read(Path file, String key) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      throw new SettingsException(key, "cannot read the HMAC key file " + file + ": " + e.getMessage());
    }
    byte[] bytes;
    try {
      bytes = text.contains("-") || text.contains("_") ? Base64.getUrlDecoder().decode(text)
          : Base64.getMimeDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new SettingsException(key, "the HMAC key file " + file + " does not hold base64 text");
    }
    if (bytes.length < MIN_BYTES) {
      throw new SettingsException(key, "the HMAC key in " + file + " has " + bytes.length + " bytes; HS256 needs at least "
          + MIN_BYTES);
    }
    return bytes;
  }

  /** Writes a new random key to {@code file}, readable by its owner alone. */
  public static void generate(Path file) throws IOException {
    byte[] key = new byte[MIN_BYTES];
    new SecureRandom().nextBytes(key);
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, Base64.getEncoder().encodeToString(key) + "\n", StandardCharsets.US_ASCII);
  }
}
