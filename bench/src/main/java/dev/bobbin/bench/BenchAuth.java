package dev.bobbin.bench;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.auth.TokenIssuer;
import dev.bobbin.config.security.SecuritySettings;
import dev.bobbin.protocol.client.Credentials;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How the bench's clients authenticate to the RM it measures: {@code simple} ({@code user.name} on
 * every call, the default of a cluster) or {@code token} (a signed HS256 bearer token, verified on
 * every call as an OIDC provider's would be).
 */
enum BenchAuth {
  SIMPLE("simple authentication (`user.name` on every call)"),
  TOKEN("token authentication (an HS256-signed JWT bearer token, verified on every call)");

  static final String USER = "bench";
  private final String description;

  BenchAuth(String description) {
    this.description = description;
  }

  static BenchAuth parse(String raw) {
    try {
      return valueOf(raw.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BenchOptions.UsageException("--auth must be simple or token, was '" + raw + "'");
    }
  }

  /** For reports: which authentication the RM ran with. */
  String describe() {
    return description;
  }

  /** The RM's {@code bobbin.security} settings; {@code hmacKey} is the file tokens are signed with. */
  String hocon(Path hmacKey) {
    return this == SIMPLE ? "bobbin.security.auth = simple\n"
        : "bobbin.security { auth = token, token.hmac-key-file = \"" + hmacKey.toAbsolutePath() + "\" }\n";
  }

  /** What the bench's REST calls carry, as {@link #USER}. */
  Credentials credentials(Path hmacKey) {
    if (this == SIMPLE) return Credentials.simpleUser(USER);
    SecuritySettings security = SecuritySettings.from(ConfigFactory.parseMap(Map.of(
        "bobbin.security.auth", "token", "bobbin.security.token.hmac-key-file", hmacKey.toAbsolutePath().toString()))
        .withFallback(ConfigFactory.defaultReference()).resolve());
    return Credentials.bearer(TokenIssuer.of(security.token()).issue(USER, List.of(), Duration.ofDays(1)));
  }
}
