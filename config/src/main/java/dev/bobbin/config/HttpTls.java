package dev.bobbin.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The {@code bobbin.http.tls} section: whether RM and NM servers speak HTTPS, the key store they
 * present, the trust store every Bobbin client (and RM member, over Artery) verifies its peer with.
 *
 * @param keyStore PKCS#12, or PEM certificates with {@code keyFile}; null when not configured
 * @param keyFile PEM (PKCS#8) private key for a PEM {@code keyStore}; null otherwise
 * @param trustStore PKCS#12 or PEM certificates; null for the JVM's trust
 * @param cluster whether RM members speak TLS to each other (Artery {@code tls-tcp})
 */
public record HttpTls(
    HttpPolicy policy,
    Path keyStore,
    String keyStorePassword,
    Path keyFile,
    Path trustStore,
    String trustStorePassword,
    boolean cluster) {

  static final String SECTION = "bobbin.http.tls";

  /** Plain HTTP, the JVM's trust: what a client outside any configuration uses. */
  public static HttpTls none() {
    return new HttpTls(HttpPolicy.HTTP_ONLY, null, "", null, null, "", false);
  }

  public static HttpTls from(Config root) {
    Config c = root.getConfig(SECTION);
    HttpTls tls = new HttpTls(
        policy(c.getString("policy")),
        file(c, "key-store"),
        c.getString("key-store-password"),
        file(c, "key-file"),
        file(c, "trust-store"),
        c.getString("trust-store-password"),
        bool(c, "cluster"));
    if (tls.keyFile != null && tls.keyStore == null) {
      throw new SettingsException(SECTION + ".key-file", "is set without " + SECTION + ".key-store (its certificates)");
    }
    if (tls.cluster && (tls.keyStore == null || tls.trustStore == null)) {
      throw new SettingsException(SECTION + ".cluster",
          "RM members verify each other: set " + SECTION + ".key-store and " + SECTION + ".trust-store");
    }
    return tls;
  }

  /** What a server needs to speak HTTPS; refused when its policy asks for HTTPS without a key store. */
  public HttpTls requireServerKeys() {
    if (policy.servesHttps() && keyStore == null) {
      throw new SettingsException(SECTION + ".key-store", "policy " + policy + " needs the server's key store");
    }
    return this;
  }

  /** Whether clients must reach every address over HTTPS. */
  public boolean httpsOnly() {
    return policy == HttpPolicy.HTTPS_ONLY;
  }

  /** The HTTPS port of a server that serves both: {@code https-port} of its section. */
  public static int httpsPort(Config root, String serverSection) {
    return Settings.port(root.getConfig(serverSection), "https-port");
  }

  public static HttpPolicy policy(String raw) {
    try {
      return HttpPolicy.valueOf(raw.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SettingsException(SECTION + ".policy", "'" + raw + "' is not one of "
          + Arrays.stream(HttpPolicy.values()).map(Enum::name).collect(Collectors.joining(", ")));
    }
  }

  private static Path file(Config c, String key) {
    String raw = c.getString(key);
    if (raw.isBlank()) return null;
    Path p = Path.of(raw);
    if (!Files.isReadable(p)) throw new SettingsException(SECTION + "." + key, "cannot read " + p);
    return p;
  }

  private static boolean bool(Config c, String key) {
    try {
      return c.getBoolean(key);
    } catch (ConfigException e) {
      throw new SettingsException(SECTION + "." + key, e.getMessage());
    }
  }
}
