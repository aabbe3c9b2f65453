package dev.bobbin.auth;

import dev.bobbin.config.security.SimpleAuthSettings;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookie;
import org.apache.pekko.http.javadsl.model.headers.HttpCookiePair;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;

/**
 * YARN's pseudo authentication ({@code PseudoAuthenticationHandler} behind Hadoop's
 * {@code AuthenticationFilter}): the caller is the user the {@code user.name} query parameter
 * names, or the one a genuine {@code hadoop.auth} cookie stands for, which the answer to a request
 * with {@code user.name} sets. Without either, the caller is the anonymous user if that is allowed,
 * else the request is refused.
 */
final class SimpleAuthenticator implements RequestAuthenticator<Identity> {
  static final String USER_PARAM = "user.name";
  private static final List<HttpHeader> CHALLENGE = List.of(RawHeader.create("WWW-Authenticate", "PseudoAuth"));

  private final SimpleAuthSettings settings;
  private final SignedCookie cookies;

  SimpleAuthenticator(SimpleAuthSettings settings, SignedCookie cookies) {
    this.settings = settings;
    this.cookies = cookies;
  }

  @Override
  public Verdict<Identity> authenticate(HttpRequest request) {
    Optional<String> named = request.getUri().query().get(USER_PARAM);
    String fromCookie = cookieUser(request);
    if (named.isPresent()) {
      String user = named.get();
      String problem = UserNames.problem(user);
      if (problem != null) return new Verdict.Refused<>(UserNames.printable(user), problem, CHALLENGE);
      if (user.equals(fromCookie)) return Verdict.accepted(Identity.of(user));
      HttpCookie cookie = HttpCookie.create(SignedCookie.NAME, cookies.issue(user)).withPath("/").withHttpOnly(true)
          .withMaxAge(cookies.validity().toSeconds());
      return new Verdict.Accepted<>(Identity.of(user), List.of(SetCookie.create(cookie)));
    }
    if (fromCookie != null) return Verdict.accepted(Identity.of(fromCookie));
    if (settings.anonymousAllowed()) return Verdict.accepted(Identity.of(settings.anonymousUser()));
    return new Verdict.Refused<>("", "Authentication required: name the user with ?" + USER_PARAM + "=USER", CHALLENGE);
  }

  private String cookieUser(HttpRequest request) {
    Optional<Cookie> header = request.getHeader(Cookie.class);
    if (header.isEmpty()) return null;
    for (HttpCookiePair pair : header.get().getCookies()) {
      if (SignedCookie.NAME.equals(pair.name())) {
        String user = cookies.verify(unquoted(pair.value()));
        if (user != null && UserNames.problem(user) == null) return user;
      }
    }
    return null;
  }

  private static String unquoted(String v) {
    return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
  }
}
