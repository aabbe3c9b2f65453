package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Failover;
import dev.bobbin.protocol.client.TlsSettings;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What the client commands take from their surroundings; tests substitute their own.
 *
 * @param tokenFromEnv {@code $BOBBIN_TOKEN}: the bearer token commands call with, unless told another
 * @param http the transport; each command calls through it with its credentials
 */
public record ClientContext(
    String rmFromEnv,
    String tokenFromEnv,
    String osUser,
    String amClasspath,
    Duration pollInterval,
    Duration killTimeout,
    BobbinHttp http) {

  static final Duration POLL_INTERVAL = Duration.ofMillis(500);
  static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
  /** Short, so that a member that cannot be reached is passed over for the next in {@code --rm} quickly. */
  static final Duration CONNECT_TIMEOUT = Failover.CONNECT_TIMEOUT;
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public static ClientContext system() {
    return new ClientContext(
        System.getenv("BOBBIN_RM"),
        System.getenv("BOBBIN_TOKEN"),
        System.getProperty("user.name"),
        absoluteClasspath(System.getProperty("java.class.path", "")),
        POLL_INTERVAL,
        KILL_TIMEOUT,
        transport(REQUEST_TIMEOUT));
  }

  /**
   * Trusting what {@code $BOBBIN_TLS_TRUST_STORE} holds (PKCS#12 or PEM, with
   * {@code $BOBBIN_TLS_TRUST_STORE_PASSWORD}), else the JVM's trust store; over HTTPS only when
   * {@code $BOBBIN_HTTPS_ONLY} is true.
   */
  static BobbinHttp transport(Duration requestTimeout) {
    return BobbinHttp.builder().connectTimeout(CONNECT_TIMEOUT).requestTimeout(requestTimeout)
        .tls(TlsSettings.fromEnvironment(System.getenv())).build();
  }

  /** The AM runs in another working directory, so relative entries would point nowhere there. */
  static String absoluteClasspath(String classpath) {
    if (classpath.isBlank()) return classpath;
    return Arrays.stream(classpath.split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .map(entry -> Path.of(entry).toAbsolutePath().normalize().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }
}
