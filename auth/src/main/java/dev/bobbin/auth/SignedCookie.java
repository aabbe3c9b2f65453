package dev.bobbin.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Hadoop's {@code hadoop.auth} cookie: {@code u=USER&p=USER&t=simple&e=EXPIRES_MS&s=SIGNATURE},
 * signed with the member's key, so that a client which authenticated once is known by it until it
 * expires.
 */
final class SignedCookie {
  static final String NAME = "hadoop.auth";
  private static final String HMAC = "HmacSHA256";

  private final byte[] key;
  private final Duration validity;
  private final Clock clock;

  SignedCookie(byte[] key, Duration validity, Clock clock) {
    this.key = key.clone();
    this.validity = validity;
    this.clock = clock;
  }

  Duration validity() {
    return validity;
  }

  /** A new cookie value standing for {@code user} from now until the validity has passed. */
  String issue(String user) {
    String token = "u=" + user + "&p=" + user + "&t=simple&e=" + (clock.millis() + validity.toMillis());
    return token + "&s=" + sign(token);
  }

  /** @return the user a genuine, unexpired cookie stands for, or null */
  String verify(String value) {
    int s = value.lastIndexOf("&s=");
    if (s < 0) return null;
    String token = value.substring(0, s);
    byte[] expected = sign(token).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(expected, value.substring(s + 3).getBytes(StandardCharsets.US_ASCII))) return null;
    Map<String, String> fields = new LinkedHashMap<>();
    for (String kv : token.split("&")) {
      int eq = kv.indexOf('=');
      if (eq > 0) fields.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    String user = fields.get("u");
    try {
      if (user == null || Long.parseLong(fields.getOrDefault("e", "0")) <= clock.millis()) return null;
    } catch (NumberFormatException e) {
      return null;
    }
    return user;
  }

  private String sign(String token) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(new SecretKeySpec(key, HMAC));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(token.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
