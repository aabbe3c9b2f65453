package dev.bobbin.protocol.client;

import dev.bobbin.protocol.ContainerEnv;
import dev.bobbin.protocol.tls.TlsStores;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * How a {@link BobbinHttp} transport speaks TLS to {@code https://} addresses: the one place for the
 * context (trusted certificates, client keys) and its parameters (protocols, cipher suites).
 * {@link #system()} trusts what the JVM trusts. Host names are verified in every case.
 *
 * @param parameters null for the context's defaults
 * @param httpsOnly every call goes over HTTPS, whatever scheme its address has (or lacks): the
 *     transport of a cluster whose servers speak only HTTPS never sends a request in the clear
 */
public record TlsSettings(SSLContext context, SSLParameters parameters, boolean httpsOnly) {
  public TlsSettings {
    if (context == null) throw new IllegalArgumentException("No SSLContext");
  }

  /** The JVM's default context: its trust store, no client certificate. */
  public static TlsSettings system() {
    try {
      return new TlsSettings(SSLContext.getDefault(), null, false);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JVM has no default TLS context", e);
    }
  }

  public static TlsSettings of(SSLContext context) {
    return new TlsSettings(context, null, false);
  }

  /**
   * Trusting the certificates of {@code trustStore} (PKCS#12 or PEM, see {@link TlsStores}), or the
   * JVM's when it is null.
   */
  public static TlsSettings trusting(Path trustStore, String password, boolean httpsOnly) {
    SSLContext ctx = trustStore == null ? system().context()
        : TlsStores.context(null, "", TlsStores.trustStore(trustStore, password == null ? "" : password));
    return new TlsSettings(ctx, null, httpsOnly);
  }

  /** What the RM tells an AM container to trust (see {@link ContainerEnv#TLS_TRUST_STORE}). */
  public static TlsSettings fromEnvironment(Map<String, String> env) {
    String store = env.getOrDefault(ContainerEnv.TLS_TRUST_STORE, "");
    return trusting(store.isBlank() ? null : Path.of(store), env.getOrDefault(ContainerEnv.TLS_TRUST_STORE_PASSWORD, ""),
        Boolean.parseBoolean(env.getOrDefault(ContainerEnv.HTTPS_ONLY, "false")));
  }

  /** The environment that makes {@link #fromEnvironment} trust {@code trustStore}. */
  public static Map<String, String> environment(Path trustStore, String password, boolean httpsOnly) {
    if (trustStore == null) return Map.of(ContainerEnv.HTTPS_ONLY, Boolean.toString(httpsOnly));
    return Map.of(ContainerEnv.TLS_TRUST_STORE, trustStore.toAbsolutePath().toString(),
        ContainerEnv.TLS_TRUST_STORE_PASSWORD, password == null ? "" : password,
        ContainerEnv.HTTPS_ONLY, Boolean.toString(httpsOnly));
  }

  public TlsSettings withParameters(SSLParameters parameters) {
    return new TlsSettings(context, parameters, httpsOnly);
  }

  void applyTo(HttpClient.Builder builder) {
    builder.sslContext(context);
    if (parameters != null) builder.sslParameters(parameters);
  }

  String upgrade(String url) {
    return httpsOnly && url.startsWith("http://") ? "https://" + url.substring("http://".length()) : url;
  }
}
