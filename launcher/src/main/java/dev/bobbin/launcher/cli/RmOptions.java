package dev.bobbin.launcher.cli;

import dev.bobbin.protocol.client.Credentials;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every client command takes: which ResourceManager, and as whom: a bearer token from
 * {@code --token-file} or {@code $BOBBIN_TOKEN} (the RM's token authenticator), else the user's name
 * ({@code user.name}, the RM's simple authenticator).
 */
final class RmOptions {
  static final String DEFAULT_RM = "http://127.0.0.1:8088";

  @Option(names = "--rm", paramLabel = "URL[,URL...]",
      description = "ResourceManager address(es), tried in order (default: $BOBBIN_RM, else " + DEFAULT_RM + ")")
  String rm;

  @Option(names = "--user", paramLabel = "NAME", description = "user to act as (default: the OS user)")
  String user;

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "a bearer token (JWT) to call with, as `bobbin admin issue-token` or an identity provider issues"
          + " it (default: $BOBBIN_TOKEN)")
  Path tokenFile;

  /** What each request carries: the token, if there is one, else the user's name. */
  Credentials credentials(ClientContext context) {
    String token = token(context);
    if (token == null) return Credentials.simpleUser(user(context));
    if (user != null) throw new UsageException("--user cannot be combined with a token: the token names its user");
    try {
      return Credentials.bearer(token);
    } catch (IllegalArgumentException e) {
      throw new UsageException((tokenFile != null ? "--token-file " + tokenFile : "$BOBBIN_TOKEN") + ": " + e.getMessage());
    }
  }

  /** {@code --token-file}'s content, else {@code $BOBBIN_TOKEN}, else null. */
  private String token(ClientContext context) {
    if (tokenFile == null) {
      String env = context.tokenFromEnv();
      return env == null || env.isBlank() ? null : env;
    }
    try {
      return Files.readString(tokenFile).strip();
    } catch (IOException e) {
      throw new UsageException("--token-file: cannot read " + tokenFile + ": " + e.getMessage());
    }
  }

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
