package dev.bobbin.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import dev.bobbin.config.security.TokenSettings;
import java.text.ParseException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Authorization;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;

/**
 * Signed bearer tokens (JWT, RFC 7519), as an OIDC provider issues them: the signature verified
 * with the configured keys, {@code iss} equal to the configured issuer, {@code aud} including the
 * configured audience, {@code exp} present and not passed, {@code nbf} (if present) reached. The
 * user is the configured claim; the groups, if the token lists them, another.
 */
final class TokenAuthenticator implements RequestAuthenticator<Identity> {
  private static final String REALM = "Bearer realm=\"bobbin\"";

  private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
  private final TokenSettings settings;

  TokenAuthenticator(TokenSettings settings, TokenKeys keys) {
    this.settings = settings;
    processor.setJWSKeySelector(new JWSVerificationKeySelector<>(keys.algorithms(), keys.source()));
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
        Set.of(settings.audience()),
        new JWTClaimsSet.Builder().issuer(settings.issuer()).build(),
        Set.of("exp", settings.userClaim()),
        Set.of());
    claims.setMaxClockSkew((int) Math.min(Integer.MAX_VALUE, settings.clockSkew().toSeconds()));
    processor.setJWTClaimsSetVerifier(claims);
  }

  @Override
  public Verdict<Identity> authenticate(HttpRequest request) {
    Optional<String> bearer = request.getHeader(Authorization.class).map(Authorization::value)
        .filter(v -> v.regionMatches(true, 0, "Bearer ", 0, 7)).map(v -> v.substring(7).trim());
    if (bearer.isEmpty()) {
      return refused("", "Authentication required: a bearer token (Authorization: Bearer TOKEN)", REALM);
    }
    JWTClaimsSet claims;
    try {
      claims = processor.process(bearer.get(), null);
    } catch (ParseException | BadJOSEException | JOSEException e) {
      return refused("", "Invalid token: " + e.getMessage(), REALM + ", error=\"invalid_token\"");
    }
    String user;
    try {
      user = claims.getStringClaim(settings.userClaim());
    } catch (ParseException e) {
      return refused("", "Invalid token: the " + settings.userClaim() + " claim is not a string", REALM);
    }
    String problem = UserNames.problem(user);
    if (problem != null) return refused(UserNames.printable(String.valueOf(user)), "Invalid token: " + problem, REALM);
    return Verdict.accepted(new Identity(user, groups(claims.getClaim(settings.groupsClaim()))));
  }

  /** An array of names, or one string of them separated by commas or spaces; null when absent. */
  private static List<String> groups(Object claim) {
    if (claim == null) return null;
    if (claim instanceof List<?> list) {
      return list.stream().filter(g -> g != null).map(g -> String.valueOf(g).trim()).filter(g -> !g.isEmpty()).toList();
    }
    return Arrays.stream(String.valueOf(claim).split("[,\\s]+")).filter(g -> !g.isEmpty()).toList();
  }

  private static Verdict<Identity> refused(String claimed, String reason, String challenge) {
    List<HttpHeader> headers = List.of(RawHeader.create("WWW-Authenticate", challenge));
    return new Verdict.Refused<>(claimed, reason, headers);
  }
}
