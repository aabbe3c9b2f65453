package dev.bobbin.launcher.cli;

import java.io.File;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

/** What the client commands take from their surroundings; tests substitute their own. */
public record ClientContext(
    String rmFromEnv,
    String osUser,
    String amClasspath,
    Duration pollInterval,
    Duration killTimeout,
    Duration requestTimeout,
    HttpClient http) {

  static final Duration POLL_INTERVAL = Duration.ofMillis(500);
  static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public static ClientContext system() {
    return new ClientContext(
        System.getenv("BOBBIN_RM"),
        System.getProperty("user.name"),
        absoluteClasspath(System.getProperty("java.class.path", "")),
        POLL_INTERVAL,
        KILL_TIMEOUT,
        REQUEST_TIMEOUT,
        defaultHttpClient());
  }

  static HttpClient defaultHttpClient() {
    // NORMAL follows a standby RM's 307 to the active one.
    return HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build();
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
