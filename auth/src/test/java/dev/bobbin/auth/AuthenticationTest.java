package dev.bobbin.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.WireJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The directive on a real server: refusals as YARN's 401, and the caller and its address handed on. */
class AuthenticationTest extends AllDirectives {
  private static ActorSystem system;
  private static ServerBinding binding;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void serve() throws Exception {
    system = ActorSystem.create("authentication-test");
    RequestAuthenticator<Identity> users = request -> request.getUri().query().get("user.name")
        .<Verdict<Identity>>map(u -> Verdict.accepted(Identity.of(u)))
        .orElse(new Verdict.Refused<>("", "Authentication required", java.util.List.of()));
    Authentication<Identity> auth = new Authentication<>(users, "TEST");
    binding = Http.get(system).newServerAt("127.0.0.1", 0)
        .withSettings(ServerSettings.create(system).withRemoteAddressAttribute(true))
        .bind(new AuthenticationTest().route(auth)).toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private org.apache.pekko.http.javadsl.server.Route route(Authentication<Identity> auth) {
    return auth.require(caller -> complete(caller.principal().user() + "@" + caller.address()));
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  private static HttpResponse<String> get(String query) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + binding.localAddress().getPort()
        + "/anything" + query)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theCallerAndTheirAddressReachTheRoute() throws Exception {
    HttpResponse<String> r = get("?user.name=alice");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("alice@127.0.0.1");
  }

  @Test
  void aRefusalIsA401RemoteException() throws Exception {
    HttpResponse<String> r = get("");
    assertThat(r.statusCode()).isEqualTo(401);
    var body = WireJson.mapper().readTree(r.body()).path("RemoteException");
    assertThat(body.path("exception").asText()).isEqualTo("AuthenticationException");
    assertThat(body.path("javaClassName").asText()).isEqualTo(Authentication.EXCEPTION);
    assertThat(body.path("message").asText()).isEqualTo("Authentication required");
  }
}
