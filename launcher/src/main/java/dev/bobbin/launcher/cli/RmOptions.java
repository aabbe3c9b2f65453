package dev.bobbin.launcher.cli;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The options every client command takes: which ResourceManager, and as whom. */
final class RmOptions {
  static final String DEFAULT_RM = "http://127.0.0.1:8088";

  @Option(names = "--rm", paramLabel = "URL[,URL...]",
      description = "ResourceManager address(es), tried in order (default: $BOBBIN_RM, else " + DEFAULT_RM + ")")
  String rm;

  @Option(names = "--user", paramLabel = "NAME", description = "user to act as (default: the OS user)")
  String user;

  /** {@code --user}, else the OS user. */
  String user(ClientContext context) {
    String u = user != null ? user : context.osUser();
    if (u == null || u.isBlank()) throw new UsageException("--user must not be empty");
    return u;
  }

  /** {@code --rm}, else {@code $BOBBIN_RM}, else the default. */
  List<String> rmUrls(ClientContext context) {
    String env = context.rmFromEnv();
    return parseRmList(rm != null ? rm : env == null || env.isBlank() ? DEFAULT_RM : env);
  }

  static List<String> parseRmList(String commaList) {
    List<String> out = new ArrayList<>();
    for (String raw : commaList.split(",")) {
      String rm = raw.strip();
      if (rm.isEmpty()) continue;
      URI uri;
      try {
        uri = new URI(rm);
      } catch (Exception e) {
        throw new UsageException("Invalid --rm URL '" + rm + "'");
      }
      String scheme = uri.getScheme();
      if (uri.getHost() == null || !("http".equals(scheme) || "https".equals(scheme))) {
        throw new UsageException("Invalid --rm URL '" + rm + "', expected http://host:port");
      }
      out.add(rm.endsWith("/") ? rm.substring(0, rm.length() - 1) : rm);
    }
    if (out.isEmpty()) throw new UsageException("--rm needs at least one URL");
    return List.copyOf(out);
  }
}
