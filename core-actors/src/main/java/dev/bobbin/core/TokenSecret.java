package dev.bobbin.core;

import dev.bobbin.config.RmSettings;
import dev.bobbin.config.SettingsException;
import dev.bobbin.protocol.Tokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/** The secret that signs container and AM tokens: configured, or made once per data directory. */
public final class TokenSecret {
  private TokenSecret() {}

  public static byte[] load(RmSettings settings) {
    if (!settings.tokenSecret().isBlank()) {
      try {
        byte[] key = Tokens.decodeKey(settings.tokenSecret().trim());
        if (key.length < 16) throw new SettingsException("bobbin.rm.token-secret", "must be at least 16 bytes");
        return key;
      } catch (IllegalArgumentException e) {
        throw new SettingsException("bobbin.rm.token-secret", "is not base64url: " + e.getMessage());
      }
    }
    Path file = settings.dataDir().resolve("token-secret");
    try {
      if (Files.exists(file)) return Tokens.decodeKey(Files.readString(file, StandardCharsets.UTF_8).trim());
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      Files.createDirectories(settings.dataDir());
      Path tmp = Files.createTempFile(settings.dataDir(), "token-secret", ".tmp");
      Files.writeString(tmp, Tokens.encodeKey(key), StandardCharsets.UTF_8);
      Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return key;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read or write " + file, e);
    }
  }
}
