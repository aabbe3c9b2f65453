package dev.bobbin.launcher.cli;

import dev.bobbin.auth.TokenIssuer;
import dev.bobbin.config.Settings;
import dev.bobbin.config.security.SecuritySettings;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code bobbin admin ACTION}: the RM's administration, as {@code yarn rmadmin}. */
@Command(name = "admin", header = "Administers the ResourceManager, as yarn rmadmin: admin refresh-queues,"
    + " refresh-nodes, refresh-user-to-groups-mappings, issue-token.")
final class AdminCommand implements Runnable {
  static final String ACTIONS = "refresh-queues, refresh-nodes, refresh-user-to-groups-mappings, issue-token";

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing action: " + ACTIONS);
  }

  /** {@code bobbin admin refresh-queues}: reloads the Fair queues, like {@code yarn rmadmin -refreshQueues}. */
  @Command(name = "refresh-queues", header = "Reloads the Fair scheduler's queues, as yarn rmadmin -refreshQueues.",
      description = "Re-reads the allocation file or queue configuration; an invalid one is refused with the element"
          + " and the reason, and the running configuration stays.")
  static final class RefreshQueues extends ClientCommand {
    RefreshQueues(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      String result = rm().refreshQueues();
      out.println(result.isBlank() ? "Queues refreshed" : result);
      return 0;
    }
  }

  /** {@code bobbin admin refresh-nodes}: re-reads the host lists, like {@code yarn rmadmin -refreshNodes}. */
  @Command(name = "refresh-nodes", header = "Re-reads the NodeManager host lists, as yarn rmadmin -refreshNodes.",
      description = "Every RM member reads bobbin.rm.nodes.include-path and exclude-path again: a host they no longer"
          + " allow cannot register, and a running one is decommissioned (its containers killed, the NodeManager"
          + " told to shut down), or with -g gracefully: it takes no new containers and is decommissioned once its"
          + " containers end, or at the timeout. A decommissioning host allowed again is recommissioned. A list that"
          + " cannot be read is refused, naming it, and the lists in use stay.")
  static final class RefreshNodes extends ClientCommand {
    @Option(names = {"-g", "--graceful"}, arity = "0..1", fallbackValue = "default", paramLabel = "SECONDS",
        description = "decommission gracefully, waiting this long at most (default"
            + " bobbin.rm.nodes.graceful-decommission-timeout)")
    String graceful;

    RefreshNodes(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      String result = rm().refreshNodes(graceful(graceful));
      out.println(result.isBlank() ? "Nodes refreshed" : result);
      return 0;
    }
  }

  /** {@code -g}'s value: absent, "default" (given without a timeout), or whole seconds. */
  static String graceful(String value) {
    if (value != null && !value.equals("default") && !value.matches("\\d+")) {
      throw new UsageException("Invalid value for -g: '" + value + "' (a timeout in whole seconds)");
    }
    return value;
  }

  /** {@code bobbin admin refresh-user-to-groups-mappings}, as {@code yarn rmadmin -refreshUserToGroupsMappings}. */
  @Command(name = "refresh-user-to-groups-mappings",
      header = "Has the RM look users' groups up afresh, as yarn rmadmin -refreshUserToGroupsMappings.")
  static final class RefreshGroups extends ClientCommand {
    RefreshGroups(ClientContext context, PrintStream out) {
      super(context, out);
    }

    @Override
    int run() {
      String result = rm().refreshUserToGroupsMappings();
      out.println(result.isBlank() ? "User to groups mappings refreshed" : result);
      return 0;
    }
  }

  /** {@code bobbin admin issue-token}: a bearer token signed with the cluster's HMAC key, for small clusters. */
  @Command(name = "issue-token", header = "Prints a bearer token (JWT) for a user, signed with the cluster's HMAC key.",
      description = {"For clusters and tests without an identity provider: the token carries the configured issuer,"
          + " audience, user and groups claims (bobbin.security.token) and is signed with the key of"
          + " bobbin.security.token.hmac-key-file. Callers send it with --token-file or $BOBBIN_TOKEN."})
  static final class IssueToken implements Callable<Integer> {
    @Option(names = "--user", required = true, paramLabel = "NAME", description = "the user the token names")
    String user;

    @Option(names = "--groups", paramLabel = "G[,G...]", split = ",", description = "the groups it lists")
    List<String> groups = List.of();

    @Option(names = "--ttl", paramLabel = "DURATION", description = "how long it is valid: 30m, 8h, 7d (default 8h)")
    String ttl = "8h";

    @Option(names = "--config", paramLabel = "FILE", description = "HOCON settings, over Bobbin's defaults")
    Path config;

    private final PrintStream out;

    IssueToken(PrintStream out) {
      this.out = out;
    }

    @Override
    public Integer call() {
      Duration validity = ttl(ttl);
      SecuritySettings security = SecuritySettings.from(Settings.load(config));
      String token;
      try {
        token = TokenIssuer.of(security.token()).issue(user, groups, validity);
      } catch (IllegalArgumentException e) {
        throw new UsageException("issue-token: " + e.getMessage());
      }
      out.println(token);
      return 0;
    }

    /** A count and a unit of s, m, h or d, or ISO 8601 ({@code PT30M}). */
    static Duration ttl(String text) {
      String t = text.strip();
      try {
        if (t.matches("\\d+[smhd]")) {
          long n = Long.parseLong(t.substring(0, t.length() - 1));
          return switch (t.charAt(t.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
        }
        return Duration.parse(t);
      } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
        throw new UsageException("Invalid value for option '--ttl': '" + text + "', expected a duration such as 30m,"
            + " 8h or 7d");
      }
    }
  }
}
