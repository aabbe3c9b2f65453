package dev.bobbin.protocol;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signed tokens: {@code base64url(fields joined by '|') + "." + base64url(HMAC-SHA256)}. The RM
 * signs container tokens and AM tokens with a secret it shares with NodeManagers (sent at
 * registration, as YARN's container-token master key).
 */
public final class Tokens {
  private static final Base64.Encoder ENC = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DEC = Base64.getUrlDecoder();

  private Tokens() {}

  /** What a container token grants: this container, on this node, of this size, until expiry. */
  public record ContainerTokenIdentifier(
      String containerId, String nodeId, String user, Resource resource, long expiryTimeMs, long rmIdentifier) {
    List<String> fields() {
      return List.of(
          containerId, nodeId, user, Long.toString(resource.memory()), Integer.toString(resource.vCores()),
          Long.toString(expiryTimeMs), Long.toString(rmIdentifier));
    }

    static ContainerTokenIdentifier parse(String[] f) {
      return new ContainerTokenIdentifier(
          f[0], f[1], f[2], new Resource(Long.parseLong(f[3]), Integer.parseInt(f[4])),
          Long.parseLong(f[5]), Long.parseLong(f[6]));
    }
  }

  /** What an AM token grants: acting as this application attempt. */
  public record AmTokenIdentifier(String attemptId, String user) {}

  public static String containerToken(ContainerTokenIdentifier id, byte[] secret) {
    return sign(String.join("|", id.fields()), secret);
  }

  /** @throws InvalidTokenException when the token is malformed or its signature is wrong */
  public static ContainerTokenIdentifier verifyContainerToken(String token, byte[] secret) {
    String[] f = verify(token, secret).split("\\|", -1);
    if (f.length != 7) throw new InvalidTokenException("Malformed container token");
    try {
      return ContainerTokenIdentifier.parse(f);
    } catch (NumberFormatException e) {
      throw new InvalidTokenException("Malformed container token");
    }
  }

  public static String amToken(AmTokenIdentifier id, byte[] secret) {
    return sign(id.attemptId() + "|" + id.user(), secret);
  }

  public static AmTokenIdentifier verifyAmToken(String token, byte[] secret) {
    String[] f = verify(token, secret).split("\\|", -1);
    if (f.length != 2) throw new InvalidTokenException("Malformed AM token");
    return new AmTokenIdentifier(f[0], f[1]);
  }

  public static String encodeKey(byte[] secret) {
    return ENC.encodeToString(secret);
  }

  public static byte[] decodeKey(String encoded) {
    return DEC.decode(encoded);
  }

  private static String sign(String payload, byte[] secret) {
    byte[] body = payload.getBytes(StandardCharsets.UTF_8);
    return ENC.encodeToString(body) + "." + ENC.encodeToString(mac(body, secret));
  }

  private static String verify(String token, byte[] secret) {
    if (token == null) throw new InvalidTokenException("No token");
    int dot = token.indexOf('.');
    if (dot <= 0) throw new InvalidTokenException("Malformed token");
    byte[] body;
    byte[] sig;
    try {
      body = DEC.decode(token.substring(0, dot));
      sig = DEC.decode(token.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw new InvalidTokenException("Malformed token");
    }
    if (!MessageDigest.isEqual(sig, mac(body, secret))) {
      throw new InvalidTokenException("Token signature does not match");
    }
    return new String(body, StandardCharsets.UTF_8);
  }

  private static byte[] mac(byte[] body, byte[] secret) {
    KeyedMac keyed = MACS.get();
    if (keyed == null || !Arrays.equals(keyed.secret(), secret)) {
      keyed = new KeyedMac(secret.clone(), newMac(secret));
      MACS.set(keyed);
    }
    return keyed.mac().doFinal(body);
  }

  /**
   * Looking a Mac up and keying it cost as much as the signature (the RM signs a token per
   * container), so each thread keeps its last one; {@code doFinal} leaves it ready for the next.
   */
  private static final ThreadLocal<KeyedMac> MACS = new ThreadLocal<>();

  private record KeyedMac(byte[] secret, Mac mac) {}

  private static Mac newMac(byte[] secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  /** A token that is missing, malformed, forged or expired. */
  public static final class InvalidTokenException extends RuntimeException {
    public InvalidTokenException(String message) {
      super(message);
    }
  }
}
