package dev.bobbin.protocol.client;

import dev.bobbin.protocol.WirePaths;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;

/**
 * Who a {@link BobbinHttp} transport calls as: the one place where every request it sends gets its
 * credentials. A request the caller built goes in; what is sent comes out, the same request or a
 * copy that carries a header, a query parameter or a signature.
 */
@FunctionalInterface
public interface Credentials {
  /** No credentials: the request is sent as built. */
  Credentials NONE = request -> request;

  HttpRequest authenticate(HttpRequest request);

  /** Adds {@code name: value} to every request. */
  static Credentials header(String name, String value) {
    if (value == null || value.isBlank()) throw new IllegalArgumentException("No value for header " + name);
    return request -> HttpRequest.newBuilder(request, (n, v) -> true).header(name, value).build();
  }

  /** The AM token of an application attempt, which the RM requires on every AM protocol call. */
  static Credentials amToken(String token) {
    if (token == null || token.isBlank()) throw new IllegalArgumentException("The AM token is missing");
    return header(WirePaths.AM_TOKEN_HEADER, token);
  }

  /** A signed bearer token (RFC 6750): {@code Authorization: Bearer TOKEN} on every request. */
  static Credentials bearer(String token) {
    if (token == null || token.isBlank()) throw new IllegalArgumentException("The bearer token is empty");
    String t = token.strip();
    if (t.chars().anyMatch(c -> c <= ' ' || c >= 127)) {
      throw new IllegalArgumentException("The bearer token has spaces or characters a header cannot carry");
    }
    return header("Authorization", "Bearer " + t);
  }

  /**
   * The cluster's node credential (the join token an RM member writes as {@code node-credential}),
   * which the RM requires on every NodeManager protocol call.
   */
  static Credentials nodeCredential(String credential) {
    if (credential == null || credential.isBlank()) throw new IllegalArgumentException("The node credential is empty");
    return header(WirePaths.NODE_CREDENTIAL_HEADER, credential.strip());
  }

  /** YARN's simple (pseudo) authentication: {@code user.name=USER} on every request. */
  static Credentials simpleUser(String user) {
    if (user == null || user.isBlank()) throw new IllegalArgumentException("The user name is empty");
    String param = "user.name=" + URLEncoder.encode(user, StandardCharsets.UTF_8);
    return request -> {
      URI uri = request.uri();
      URI withUser = URI.create(uri + (uri.getRawQuery() == null ? "?" : "&") + param);
      return HttpRequest.newBuilder(request, (n, v) -> true).uri(withUser).build();
    };
  }
}
