package dev.bobbin.config.security;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Bearer-token (JWT) authentication: the keys, and the claims a token must carry.
 *
 * @param jwksFile a JSON Web Key Set file (RS256, ES256 keys), or null
 * @param jwksUrl a JSON Web Key Set URL, or null
 * @param hmacKeyFile a file holding a base64 HMAC key (HS256), or null
 * @param issuer the {@code iss} a token must carry
 * @param audience a value the token's {@code aud} must include
 * @param clockSkew how far apart clocks may be when {@code exp} and {@code nbf} are checked
 */
public record TokenSettings(Path jwksFile, URI jwksUrl, Path hmacKeyFile, String issuer, String audience,
    String userClaim, String groupsClaim, Duration clockSkew) {

  public boolean hasKeys() {
    return jwksFile != null || jwksUrl != null || hmacKeyFile != null;
  }
}
