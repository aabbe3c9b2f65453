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
 * Signed tokens: {@code base64url(fields joined by '|') + "." + base64url(HMAC-SHA256)}. Each token
 * names the id of the key that signed it, so that the RM can roll its keys: container tokens are
 * signed with container-token keys, which NodeManagers are handed, and AM tokens with AM-token keys,
 * which never leave the RM members (as YARN's container-token and AMRM-token secret managers).
 */
public final class Tokens {
  private static final Base64.Encoder ENC = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DEC = Base64.getUrlDecoder();

  private Tokens() {}

  /** The keys a verifier holds, by id. */
  @FunctionalInterface
  public interface KeyLookup {
    /** The key with this id, or null when the verifier does not know it or no longer accepts it. */
    byte[] key(int keyId);
  }

  /**
   * What a container token grants: this container, on this node, of this size, until expiry.
   * {@code rmIdentifier} is the epoch of the scheduler that allocated it.
   */
  public record ContainerTokenIdentifier(
      String containerId, String nodeId, String user, Resource resource, long expiryTimeMs, long rmIdentifier,
      int keyId) {
    public ContainerTokenIdentifier(
        String containerId, String nodeId, String user, Resource resource, long expiryTimeMs, long rmIdentifier) {
      this(containerId, nodeId, user, resource, expiryTimeMs, rmIdentifier, 0);
    }

    List<String> fields() {
      return List.of(
          containerId, nodeId, user, Long.toString(resource.memory()), Integer.toString(resource.vCores()),
          Long.toString(expiryTimeMs), Long.toString(rmIdentifier), Integer.toString(keyId));
    }

    static ContainerTokenIdentifier parse(String[] f) {
      if (f.length != 8) throw new InvalidTokenException("Malformed container token");
      try {
        return new ContainerTokenIdentifier(
            f[0], f[1], f[2], new Resource(Long.parseLong(f[3]), Integer.parseInt(f[4])),
            Long.parseLong(f[5]), Long.parseLong(f[6]), Integer.parseInt(f[7]));
      } catch (NumberFormatException e) {
        throw new InvalidTokenException("Malformed container token");
      }
    }
  }

  /**
   * What an AM token grants: acting as this application attempt. {@code epoch} is the epoch of the
   * scheduler that issued it: a token of an earlier scheduler is honoured only while its attempt is
   * still the application's current one.
   */
  public record AmTokenIdentifier(String attemptId, String user, int keyId, long epoch) {
    public AmTokenIdentifier(String attemptId, String user) {
      this(attemptId, user, 0, 0);
    }

    List<String> fields() {
      return List.of(attemptId, user, Integer.toString(keyId), Long.toString(epoch));
    }

    static AmTokenIdentifier parse(String[] f) {
      if (f.length != 4) throw new InvalidTokenException("Malformed AM token");
      try {
        return new AmTokenIdentifier(f[0], f[1], Integer.parseInt(f[2]), Long.parseLong(f[3]));
      } catch (NumberFormatException e) {
        throw new InvalidTokenException("Malformed AM token");
      }
    }
  }

  public static String containerToken(ContainerTokenIdentifier id, byte[] secret) {
    return sign(String.join("|", id.fields()), secret);
  }

  /** @throws InvalidTokenException when the token is malformed or its signature is wrong */
  public static ContainerTokenIdentifier verifyContainerToken(String token, byte[] secret) {
    return verifyContainerToken(token, keyId -> secret);
  }

  /**
   * @throws UnknownKeyException when {@code keys} does not hold the key the token names
   * @throws InvalidTokenException when the token is malformed or its signature is wrong
   */
  public static ContainerTokenIdentifier verifyContainerToken(String token, KeyLookup keys) {
    Signed signed = Signed.of(token);
    ContainerTokenIdentifier id = ContainerTokenIdentifier.parse(signed.fields());
    signed.check(id.keyId(), keys);
    return id;
  }

  public static String amToken(AmTokenIdentifier id, byte[] secret) {
    return sign(String.join("|", id.fields()), secret);
  }

  public static AmTokenIdentifier verifyAmToken(String token, byte[] secret) {
    return verifyAmToken(token, keyId -> secret);
  }

  /**
   * @throws UnknownKeyException when {@code keys} does not hold the key the token names
   * @throws InvalidTokenException when the token is malformed or its signature is wrong
   */
  public static AmTokenIdentifier verifyAmToken(String token, KeyLookup keys) {
    Signed signed = Signed.of(token);
    AmTokenIdentifier id = AmTokenIdentifier.parse(signed.fields());
    signed.check(id.keyId(), keys);
    return id;
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

  /** A token split into its payload and signature, neither checked yet. */
  private record Signed(byte[] body, byte[] signature) {
    static Signed of(String token) {
      if (token == null) throw new InvalidTokenException("No token");
      int dot = token.indexOf('.');
      if (dot <= 0) throw new InvalidTokenException("Malformed token");
      try {
        return new Signed(DEC.decode(token.substring(0, dot)), DEC.decode(token.substring(dot + 1)));
      } catch (IllegalArgumentException e) {
        throw new InvalidTokenException("Malformed token");
      }
    }

    String[] fields() {
      return new String(body, StandardCharsets.UTF_8).split("\\|", -1);
    }

    void check(int keyId, KeyLookup keys) {
      byte[] key = keys.key(keyId);
      if (key == null) throw new UnknownKeyException(keyId);
      if (!MessageDigest.isEqual(signature, mac(body, key))) {
        throw new InvalidTokenException("Token signature does not match");
      }
    }
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
  public static class InvalidTokenException extends RuntimeException {
    public InvalidTokenException(String message) {
      super(message);
    }
  }

  /** A token signed with a key the verifier does not hold: retired, not yet heard of, or never made. */
  public static final class UnknownKeyException extends InvalidTokenException {
    private final int keyId;

    public UnknownKeyException(int keyId) {
      super("Unknown or retired key " + keyId);
      this.keyId = keyId;
    }

    public int keyId() {
      return keyId;
    }
  }
}
