package dev.bobbin.auth;

import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.SecuritySettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;

/** The authenticator of users that {@code bobbin.security.auth} configures. */
public final class UserAuthenticators {
  private static final int MIN_COOKIE_KEY_BYTES = 16;

  private UserAuthenticators() {}

  /** @throws SettingsException when a key it needs cannot be read */
  public static RequestAuthenticator<Identity> from(SecuritySettings settings) {
    return switch (settings.auth()) {
      case SIMPLE -> new SimpleAuthenticator(settings.simple(), new SignedCookie(cookieKey(settings.simple()
          .cookieSecretFile()), settings.simple().cookieValidity(), Clock.systemUTC()));
      case TOKEN -> new TokenAuthenticator(settings.token(), TokenKeys.from(settings.token()));
    };
  }

  /** The file's bytes, as Hadoop's signature secret file; none configured, a random key. */
  private static byte[] cookieKey(Path file) {
    if (file == null) {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      return key;
    }
    String setting = "bobbin.security.simple.cookie-secret-file";
    try {
      byte[] key = Files.readString(file).strip().getBytes(java.nio.charset.StandardCharsets.UTF_8);
      if (key.length < MIN_COOKIE_KEY_BYTES) {
        throw new SettingsException(setting, file + " holds " + key.length + " bytes; at least " + MIN_COOKIE_KEY_BYTES);
      }
      return key;
    } catch (IOException e) {
      throw new SettingsException(setting, "cannot read " + file + ": " + e.getMessage());
    }
  }
}
