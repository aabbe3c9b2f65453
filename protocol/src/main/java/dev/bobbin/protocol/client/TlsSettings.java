package dev.bobbin.protocol.client;

import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * How a {@link BobbinHttp} transport speaks TLS to {@code https://} addresses: the one place for the
 * context (trusted certificates, client keys) and its parameters (protocols, cipher suites).
 * {@link #system()} trusts what the JVM trusts. Host names are verified in every case.
 *
 * @param parameters null for the context's defaults
 */
public record TlsSettings(SSLContext context, SSLParameters parameters) {
  public TlsSettings {
    if (context == null) throw new IllegalArgumentException("No SSLContext");
  }

  /** The JVM's default context: its trust store, no client certificate. */
  public static TlsSettings system() {
    try {
      return new TlsSettings(SSLContext.getDefault(), null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("The JVM has no default TLS context", e);
    }
  }

  public static TlsSettings of(SSLContext context) {
    return new TlsSettings(context, null);
  }

  public TlsSettings withParameters(SSLParameters parameters) {
    return new TlsSettings(context, parameters);
  }

  void applyTo(HttpClient.Builder builder) {
    builder.sslContext(context);
    if (parameters != null) builder.sslParameters(parameters);
  }
}
