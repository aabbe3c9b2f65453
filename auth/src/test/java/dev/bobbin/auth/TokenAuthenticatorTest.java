package dev.bobbin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.bobbin.config.security.TokenSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenAuthenticatorTest {
  @TempDir static Path dir;
  private static Path hmacFile;
  private static Path jwksFile;
  private static RSAKey rsa;
  private static TokenSettings hmacOnly;
  private static TokenSettings jwksOnly;

  @BeforeAll
  static void keys() throws Exception {
    hmacFile = dir.resolve("hmac");
    HmacKeys.generate(hmacFile);
    rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    jwksFile = dir.resolve("jwks.json");
    Files.writeString(jwksFile, new JWKSet(rsa.toPublicJWK()).toString());
    hmacOnly = settings(null, null, hmacFile);
    jwksOnly = settings(jwksFile, null, null);
  }

  private static TokenSettings settings(Path jwks, URI url, Path hmac) {
    return new TokenSettings(jwks, url, hmac, "https://idp.example", "bobbin", "sub", "groups", Duration.ofSeconds(30));
  }

  private static Verdict<Identity> authenticate(TokenSettings s, String token) {
    return new TokenAuthenticator(s, TokenKeys.from(s)).authenticate(
        HttpRequest.create("/ws/v1/cluster/apps").addHeader(Authorization.oauth2(token)));
  }

  private static JWTClaimsSet.Builder claims(String user) {
    long now = System.currentTimeMillis();
    return new JWTClaimsSet.Builder().issuer("https://idp.example").audience(List.of("yarn", "bobbin")).subject(user)
        .expirationTime(new Date(now + 600_000));
  }

  private static String sign(JWSSigner signer, JWSHeader header, JWTClaimsSet claims) throws Exception {
    SignedJWT jwt = new SignedJWT(header, claims);
    jwt.sign(signer);
    return jwt.serialize();
  }

  private static String hs256(JWTClaimsSet claims) throws Exception {
    return sign(new MACSigner(HmacKeys.read(hmacFile, "k")), new JWSHeader(JWSAlgorithm.HS256), claims);
  }

  private static String reason(Verdict<Identity> v) {
    assertThat(v).isInstanceOf(Verdict.Refused.class);
    return ((Verdict.Refused<Identity>) v).reason();
  }

  @Test
  void aTokenTheIssuerMintedNamesItsUserAndGroups() {
    String token = new TokenIssuer(HmacKeys.read(hmacFile, "k"), hmacOnly, Clock.systemUTC())
        .issue("alice", List.of("eng", "ops"), Duration.ofMinutes(5));
    assertThat(authenticate(hmacOnly, token)).isEqualTo(Verdict.accepted(new Identity("alice", List.of("eng", "ops"))));
    String noGroups = new TokenIssuer(HmacKeys.read(hmacFile, "k"), hmacOnly, Clock.systemUTC())
        .issue("bob", List.of(), Duration.ofMinutes(5));
    assertThat(authenticate(hmacOnly, noGroups)).isEqualTo(Verdict.accepted(new Identity("bob", null)));
  }

  @Test
  void groupsMayBeOneString() throws Exception {
    String token = hs256(claims("carol").claim("groups", "eng, ops qa").build());
    assertThat(authenticate(hmacOnly, token)).isEqualTo(Verdict.accepted(new Identity("carol", List.of("eng", "ops", "qa"))));
  }

  @Test
  void aRequestWithoutATokenIsRefusedWithTheBearerChallenge() {
    Verdict<Identity> v = new TokenAuthenticator(hmacOnly, TokenKeys.from(hmacOnly))
        .authenticate(HttpRequest.create("/ws/v1/cluster/apps?user.name=alice"));
    assertThat(reason(v)).contains("bearer token");
    assertThat(((Verdict.Refused<Identity>) v).challenge().get(0).value()).startsWith("Bearer realm=");
    Verdict<Identity> basic = new TokenAuthenticator(hmacOnly, TokenKeys.from(hmacOnly)).authenticate(
        HttpRequest.create("/").addHeader(RawHeader.create("Authorization", "Basic YWxpY2U6eA==")));
    assertThat(basic).isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void forgedExpiredEarlyOrForeignTokensAreRefused() throws Exception {
    byte[] otherKey = new byte[32];
    String forged = sign(new MACSigner(otherKey), new JWSHeader(JWSAlgorithm.HS256), claims("alice").build());
    assertThat(reason(authenticate(hmacOnly, forged))).contains("signature");

    long now = System.currentTimeMillis();
    String expired = hs256(claims("alice").expirationTime(new Date(now - 120_000)).build());
    assertThat(reason(authenticate(hmacOnly, expired))).containsIgnoringCase("expired");
    String notYet = hs256(claims("alice").notBeforeTime(new Date(now + 120_000)).build());
    assertThat(reason(authenticate(hmacOnly, notYet))).containsIgnoringCase("before");
    // Within the clock skew both still count.
    assertThat(authenticate(hmacOnly, hs256(claims("alice").expirationTime(new Date(now - 5_000)).build())))
        .isInstanceOf(Verdict.Accepted.class);

    String otherAudience = hs256(claims("alice").audience("another-service").build());
    assertThat(reason(authenticate(hmacOnly, otherAudience))).contains("aud claim");
    String otherIssuer = hs256(claims("alice").issuer("https://evil.example").build());
    assertThat(reason(authenticate(hmacOnly, otherIssuer))).containsIgnoringCase("iss");
    String noExpiry = hs256(new JWTClaimsSet.Builder().issuer("https://idp.example").audience("bobbin").subject("alice")
        .build());
    assertThat(reason(authenticate(hmacOnly, noExpiry))).contains("exp");
    assertThat(reason(authenticate(hmacOnly, "not.a.token"))).startsWith("Invalid token");
    String badUser = hs256(claims("../root").build());
    assertThat(reason(authenticate(hmacOnly, badUser))).contains("not a user name");
  }

  @Test
  void rs256TokensAreVerifiedWithTheJwksFile() throws Exception {
    String token = sign(new RSASSASigner(rsa), new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
        claims("dave").build());
    assertThat(authenticate(jwksOnly, token)).isEqualTo(Verdict.accepted(new Identity("dave", null)));
    // An HS256 token is no good where only the JWKS is configured, even one keyed with the RSA public key.
    String confused = sign(new MACSigner(rsa.toPublicJWK().toRSAPublicKey().getEncoded()),
        new JWSHeader(JWSAlgorithm.HS256), claims("dave").build());
    assertThat(authenticate(jwksOnly, confused)).isInstanceOf(Verdict.Refused.class);
    RSAKey stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    String foreign = sign(new RSASSASigner(stranger), new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa-1").build(),
        claims("dave").build());
    assertThat(authenticate(jwksOnly, foreign)).isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void es256TokensAreVerifiedWithTheJwksUrl() throws Exception {
    ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
    byte[] jwks = new JWKSet(ec.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/keys", exchange -> {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, jwks.length);
      exchange.getResponseBody().write(jwks);
      exchange.close();
    });
    server.start();
    try {
      TokenSettings s = settings(null, URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/keys"), hmacFile);
      String token = sign(new ECDSASigner(ec), new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec-1").build(),
          claims("erin").claim("groups", List.of("eng")).build());
      assertThat(authenticate(s, token)).isEqualTo(Verdict.accepted(new Identity("erin", List.of("eng"))));
      // The HMAC key serves alongside the URL's keys.
      assertThat(authenticate(s, hs256(claims("frank").build()))).isInstanceOf(Verdict.Accepted.class);
    } finally {
      server.stop(0);
    }
  }
}
