package dev.bobbin.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.security.TokenSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.UUID;

/**
 * Mints HS256 bearer tokens with the cluster's HMAC key, for small clusters and tests that have no
 * identity provider: {@code bobbin admin issue-token}. Each names its user and groups in the
 * claims the RM reads, and carries the configured issuer and audience.
 */
public final class TokenIssuer {
  private final MACSigner signer;
  private final TokenSettings settings;
  private final Clock clock;

  public TokenIssuer(byte[] hmacKey, TokenSettings settings, Clock clock) {
    try {
      this.signer = new MACSigner(hmacKey);
    } catch (JOSEException e) {
      throw new IllegalArgumentException("Not an HS256 key: " + e.getMessage(), e);
    }
    this.settings = settings;
    this.clock = clock;
  }

  /** With the key of {@code bobbin.security.token.hmac-key-file}. */
  public static TokenIssuer of(TokenSettings settings) {
    if (settings.hmacKeyFile() == null) {
      throw new SettingsException("bobbin.security.token.hmac-key-file",
          "names no HMAC key file; tokens are minted with the cluster's HMAC key");
    }
    return new TokenIssuer(HmacKeys.read(settings.hmacKeyFile(), "bobbin.security.token.hmac-key-file"), settings,
        Clock.systemUTC());
  }

  /** A token for {@code user} in {@code groups} (none: no groups claim), valid from now for {@code ttl}. */
  public String issue(String user, List<String> groups, Duration ttl) {
    String problem = UserNames.problem(user);
    if (problem != null) throw new IllegalArgumentException(problem);
    if (ttl.isZero() || ttl.isNegative()) throw new IllegalArgumentException("the validity must be positive, was " + ttl);
    long now = clock.millis();
    JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
        .issuer(settings.issuer())
        .audience(settings.audience())
        .subject(user)
        .claim(settings.userClaim(), user)
        .issueTime(new Date(now))
        .notBeforeTime(new Date(now))
        .expirationTime(new Date(now + ttl.toMillis()))
        .jwtID(UUID.randomUUID().toString());
    if (!groups.isEmpty()) claims.claim(settings.groupsClaim(), List.copyOf(groups));
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims.build());
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("Cannot sign a token: " + e.getMessage(), e);
    }
    return jwt.serialize();
  }
}
