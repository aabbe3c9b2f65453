package dev.bobbin.launcher;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.HttpTls;
import dev.bobbin.protocol.tls.TlsStores;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.setup.ActorSystemSetup;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.remote.artery.tcp.SSLEngineProvider;
import org.apache.pekko.remote.artery.tcp.SSLEngineProviderSetup;
import scala.Option;

/**
 * RM members' links to each other over TLS ({@code bobbin.http.tls.cluster}): Artery's
 * {@code tls-tcp} transport with the member's key store, each side verifying the other's
 * certificate against the trust store (mutual TLS). Both stores may be PKCS#12 or PEM.
 */
final class ClusterTls {
  private ClusterTls() {}

  static <T> ActorSystem<T> createSystem(Behavior<T> guardian, String name, Config config, HttpTls tls) {
    if (!tls.cluster()) return ActorSystem.create(guardian, name, config);
    SSLContext context = TlsStores.context(
        TlsStores.keyStore(tls.keyStore(), tls.keyStorePassword(), tls.keyFile()), tls.keyStorePassword(),
        TlsStores.trustStore(tls.trustStore(), tls.trustStorePassword()));
    Config withTls = ConfigFactory.parseString("pekko.remote.artery.transport = tls-tcp").withFallback(config);
    ActorSystemSetup setup = ActorSystemSetup.create(BootstrapSetup.create(withTls))
        .withSetup(SSLEngineProviderSetup.create(system -> new MutualTls(context)));
    return ActorSystem.create(guardian, name, setup);
  }

  /** Engines from one context; the trust managers do the verifying, so the sessions need no more. */
  private record MutualTls(SSLContext context) implements SSLEngineProvider {
    @Override
    public SSLEngine createServerSSLEngine(String hostname, int port) {
      SSLEngine engine = context.createSSLEngine(hostname, port);
      engine.setUseClientMode(false);
      engine.setNeedClientAuth(true);
      return engine;
    }

    @Override
    public SSLEngine createClientSSLEngine(String hostname, int port) {
      SSLEngine engine = context.createSSLEngine(hostname, port);
      engine.setUseClientMode(true);
      return engine;
    }

    @Override
    public Option<Throwable> verifyClientSession(String hostname, SSLSession session) {
      return Option.empty();
    }

    @Override
    public Option<Throwable> verifyServerSession(String hostname, SSLSession session) {
      return Option.empty();
    }
  }
}
