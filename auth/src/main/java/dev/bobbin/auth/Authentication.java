package dev.bobbin.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.bobbin.protocol.RemoteException;
import dev.bobbin.protocol.WireJson;
import java.util.function.Function;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.ContentTypes;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.AllDirectives;
import org.apache.pekko.http.javadsl.server.Route;

/**
 * The directive that puts an authenticator in front of routes: the request's caller is
 * established before anything else; a refused request gets 401 with YARN's RemoteException
 * ({@code AuthenticationException}) and the authenticator's challenge, and an audit line. The
 * server must set {@code remote-address-attribute} for the caller's address to be known.
 */
public final class Authentication<P> extends AllDirectives {
  public static final String EXCEPTION = "org.apache.hadoop.security.authentication.client.AuthenticationException";

  /** An authenticated caller and the address the request came from ("" when unknown). */
  public record Authenticated<P>(P principal, String address) {}

  private final RequestAuthenticator<P> authenticator;
  private final String target;

  /** @param target what the audit log names as the refusing service ("RM", "NM") */
  public Authentication(RequestAuthenticator<P> authenticator, String target) {
    this.authenticator = authenticator;
    this.target = target;
  }

  public Route require(Function<Authenticated<P>, Route> inner) {
    return extractRequest(request -> {
      String address = address(request);
      Verdict<P> verdict = authenticator.authenticate(request);
      if (verdict instanceof Verdict.Refused<P> refused) {
        AuditLog.of(refused.claimed(), address, "Authenticate", target).failure(refused.reason());
        return complete(unauthorized(refused));
      }
      Verdict.Accepted<P> accepted = (Verdict.Accepted<P>) verdict;
      Route route = inner.apply(new Authenticated<>(accepted.principal(), address));
      return accepted.headers().isEmpty() ? route : respondWithHeaders(accepted.headers(), () -> route);
    });
  }

  /** The peer's address, as the server recorded it (never a header the client could set). */
  public static String address(HttpRequest request) {
    return request.getAttribute(AttributeKeys.remoteAddress)
        .flatMap(a -> a.getAddress()).map(a -> a.getHostAddress()).orElse("");
  }

  private static HttpResponse unauthorized(Verdict.Refused<?> refused) {
    byte[] body;
    try {
      body = WireJson.mapper().writeValueAsBytes(RemoteException.of(EXCEPTION, refused.reason()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write an error body", e);
    }
    return HttpResponse.create().withStatus(StatusCodes.UNAUTHORIZED).addHeaders(refused.challenge())
        .withEntity(ContentTypes.APPLICATION_JSON, body);
  }
}
