package dev.bobbin.http.server;

import dev.bobbin.config.HttpLimits;
import dev.bobbin.config.HttpPolicy;
import dev.bobbin.config.HttpTls;
import dev.bobbin.protocol.client.TlsSettings;
import dev.bobbin.protocol.tls.TlsStores;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.ConnectionContext;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.HttpsConnectionContext;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.server.Route;
import org.apache.pekko.http.javadsl.settings.ServerSettings;

/**
 * The HTTP servers of an RM member or a NodeManager as {@code bobbin.http.tls.policy} asks: plain
 * HTTP, TLS on the HTTP port, or both on their two ports; and the client side that goes with it.
 */
public final class HttpServers {
  /**
   * @param main on the HTTP port: plain, or TLS under HTTPS_ONLY
   * @param https on the HTTPS port under HTTP_AND_HTTPS
   */
  public record Bound(ServerBinding main, Optional<ServerBinding> https, HttpPolicy policy) {
    /** The scheme of the HTTP port's address. */
    public String scheme() {
      return policy == HttpPolicy.HTTPS_ONLY ? "https" : "http";
    }

    public CompletionStage<Void> unbind() {
      CompletableFuture<?> a = main.unbind().toCompletableFuture();
      CompletableFuture<?> b = https.map(h -> h.unbind().toCompletableFuture()).orElse(CompletableFuture.completedFuture(null));
      return CompletableFuture.allOf(a, b);
    }
  }

  private HttpServers() {}

  /** @param limits what a request may be (see {@link RequestGuard}), on every port */
  public static CompletionStage<Bound> bind(ActorSystem<?> system, String host, int httpPort, int httpsPort,
      HttpTls tls, HttpLimits limits, Route routes) {
    Http http = Http.get(system);
    ServerSettings settings = RequestGuard.serverSettings(system, limits);
    return switch (tls.requireServerKeys().policy()) {
      case HTTP_ONLY -> http.newServerAt(host, httpPort).withSettings(settings).bind(routes)
          .thenApply(b -> new Bound(b, Optional.empty(), HttpPolicy.HTTP_ONLY));
      case HTTPS_ONLY -> http.newServerAt(host, httpPort).withSettings(settings).enableHttps(serverContext(tls))
          .bind(routes).thenApply(b -> new Bound(b, Optional.empty(), HttpPolicy.HTTPS_ONLY));
      case HTTP_AND_HTTPS -> http.newServerAt(host, httpPort).withSettings(settings).bind(routes).thenCompose(plain ->
          http.newServerAt(host, httpsPort).withSettings(settings).enableHttps(serverContext(tls)).bind(routes)
              .thenApply(secure -> new Bound(plain, Optional.of(secure), HttpPolicy.HTTP_AND_HTTPS)));
    };
  }

  /** What Bobbin's clients in this process trust, and whether they speak only HTTPS. */
  public static TlsSettings clientTls(HttpTls tls) {
    return TlsSettings.trusting(tls.trustStore(), tls.trustStorePassword(), tls.httpsOnly());
  }

  private static HttpsConnectionContext serverContext(HttpTls tls) {
    return ConnectionContext.httpsServer(TlsStores.context(
        TlsStores.keyStore(tls.keyStore(), tls.keyStorePassword(), tls.keyFile()), tls.keyStorePassword(), null));
  }
}
