package dev.bobbin.launcher;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code bobbin.http.tls} settings as options of the servers' commands. */
final class TlsOptions {
  @Option(names = "--tls-keystore", paramLabel = "FILE",
      description = "serve HTTPS with this PKCS#12 key store, or PEM certificate chain (with --tls-key);"
          + " HTTPS only unless --http-policy says otherwise")
  Path keyStore;

  @Option(names = "--tls-keystore-password", paramLabel = "PW", description = "the key store's password")
  String keyStorePassword;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "the PEM (PKCS#8) private key of a PEM --tls-keystore")
  Path key;

  @Option(names = "--tls-truststore", paramLabel = "FILE",
      description = "the certificates (PKCS#12 or PEM) this process's clients trust (default: the JVM's)")
  Path trustStore;

  @Option(names = "--tls-truststore-password", paramLabel = "PW", description = "the trust store's password")
  String trustStorePassword;

  @Option(names = "--http-policy", paramLabel = "HTTP_ONLY|HTTPS_ONLY|HTTP_AND_HTTPS",
      description = "yarn.http.policy (default HTTP_ONLY, or HTTPS_ONLY with --tls-keystore)")
  String policy;

  void putInto(Map<String, Object> over) {
    RmCommand.put(over, "bobbin.http.tls.key-store", keyStore == null ? null : keyStore.toAbsolutePath().toString());
    RmCommand.put(over, "bobbin.http.tls.key-store-password", keyStorePassword);
    RmCommand.put(over, "bobbin.http.tls.key-file", key == null ? null : key.toAbsolutePath().toString());
    RmCommand.put(over, "bobbin.http.tls.trust-store", trustStore == null ? null : trustStore.toAbsolutePath().toString());
    RmCommand.put(over, "bobbin.http.tls.trust-store-password", trustStorePassword);
    RmCommand.put(over, "bobbin.http.tls.policy", policy != null ? policy : keyStore != null ? "HTTPS_ONLY" : null);
  }
}
