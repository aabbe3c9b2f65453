package dev.bobbin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.security.SimpleAuthSettings;
import java.time.Duration;
import java.time.Instant;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Cookie;
import org.apache.pekko.http.javadsl.model.headers.SetCookie;
import org.junit.jupiter.api.Test;

class SimpleAuthenticatorTest {
  private final TestingClock clock = new TestingClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final SignedCookie cookies = new SignedCookie("a key of the member, 32 bytes long".getBytes(),
      Duration.ofHours(10), clock);

  private SimpleAuthenticator authenticator(boolean anonymousAllowed) {
    return new SimpleAuthenticator(new SimpleAuthSettings(anonymousAllowed, "dr.who", Duration.ofHours(10), null),
        cookies);
  }

  @Test
  void theNamedUserIsTheCallerAndGetsACookie() {
    Verdict<Identity> v = authenticator(false).authenticate(HttpRequest.create("/ws/v1/cluster/apps?user.name=alice"));
    assertThat(v).isInstanceOf(Verdict.Accepted.class);
    Verdict.Accepted<Identity> a = (Verdict.Accepted<Identity>) v;
    assertThat(a.principal()).isEqualTo(Identity.of("alice"));
    SetCookie set = (SetCookie) a.headers().get(0);
    assertThat(set.cookie().name()).isEqualTo("hadoop.auth");
    assertThat(set.cookie().value()).startsWith("u=alice&p=alice&t=simple&e=");
    assertThat(set.cookie().httpOnly()).isTrue();

    // The cookie alone stands for alice next time, and is not set again while it does.
    HttpRequest withCookie = HttpRequest.create("/ws/v1/cluster/apps").addHeader(Cookie.create("hadoop.auth",
        set.cookie().value()));
    assertThat(authenticator(false).authenticate(withCookie)).isEqualTo(Verdict.accepted(Identity.of("alice")));
    assertThat(authenticator(false).authenticate(HttpRequest.create("/x?user.name=alice").addHeader(
        Cookie.create("hadoop.auth", set.cookie().value())))).isEqualTo(Verdict.accepted(Identity.of("alice")));
  }

  @Test
  void withoutAUserTheRequestIsRefusedUnlessAnonymousCallersAreAllowed() {
    Verdict<Identity> refused = authenticator(false).authenticate(HttpRequest.create("/ws/v1/cluster/apps"));
    assertThat(refused).isInstanceOf(Verdict.Refused.class);
    assertThat(((Verdict.Refused<Identity>) refused).reason()).contains("user.name");
    assertThat(((Verdict.Refused<Identity>) refused).challenge().get(0).value()).isEqualTo("PseudoAuth");
    assertThat(authenticator(true).authenticate(HttpRequest.create("/ws/v1/cluster/apps")))
        .isEqualTo(Verdict.accepted(Identity.of("dr.who")));
  }

  @Test
  void aForgedOrExpiredCookieStandsForNoOne() {
    String genuine = cookies.issue("alice");
    String forged = genuine.replace("u=alice&p=alice", "u=admin&p=admin");
    assertThat(authenticator(false).authenticate(HttpRequest.create("/").addHeader(Cookie.create("hadoop.auth", forged))))
        .isInstanceOf(Verdict.Refused.class);
    String otherKey = new SignedCookie("another member's key, also long".getBytes(), Duration.ofHours(10), clock)
        .issue("alice");
    assertThat(authenticator(false).authenticate(HttpRequest.create("/").addHeader(Cookie.create("hadoop.auth", otherKey))))
        .isInstanceOf(Verdict.Refused.class);
    clock.advance(Duration.ofHours(10));
    assertThat(authenticator(false).authenticate(HttpRequest.create("/").addHeader(Cookie.create("hadoop.auth", genuine))))
        .isInstanceOf(Verdict.Refused.class);
  }

  @Test
  void aNameThatIsNoUserNameIsRefused() {
    for (String bad : new String[] {"", "-rf", "alice%20bob", "..%2Fetc", "a%0Ab"}) {
      Verdict<Identity> v = authenticator(true).authenticate(HttpRequest.create("/?user.name=" + bad));
      assertThat(v).as(bad).isInstanceOf(Verdict.Refused.class);
    }
    assertThat(authenticator(false).authenticate(HttpRequest.create("/?user.name=svc_batch-01.prod@EXAMPLE")))
        .isInstanceOf(Verdict.Accepted.class);
  }
}
