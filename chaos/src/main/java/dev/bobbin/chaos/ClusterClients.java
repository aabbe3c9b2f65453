package dev.bobbin.chaos;

import dev.bobbin.protocol.client.BobbinHttp;
import dev.bobbin.protocol.client.Credentials;
import dev.bobbin.protocol.client.NodeRestClient;
import dev.bobbin.protocol.client.RmRestClient;
import java.time.Duration;
import java.util.List;

/**
 * The harness's clients of the cluster's REST APIs, over one transport: each RM member on its own
 * (the harness chooses whom it asks, so a client never fails over to another member), and the
 * NodeManagers. Every call waits at most the timeout its client was made with.
 */
final class ClusterClients {
  private static final Duration CONNECT = Duration.ofSeconds(1);

  private static final String OWN_USER = System.getProperty("user.name", "chaos");
  private final BobbinHttp http = BobbinHttp.builder().connectTimeout(CONNECT).build();

  /** {@code m}'s REST API, called as the user the chaos run is. */
  RmRestClient rm(Member m, Duration timeout) {
    return rm(m, OWN_USER, timeout);
  }

  /** {@code m}'s REST API, called as {@code user}. */
  RmRestClient rm(Member m, String user, Duration timeout) {
    return new RmRestClient(http.withRequestTimeout(timeout).withCredentials(Credentials.simpleUser(user)),
        List.of(m.url()));
  }

  /** The NodeManagers' REST API, called as the user the chaos run is. */
  NodeRestClient nodes(Duration timeout) {
    return new NodeRestClient(http.withRequestTimeout(timeout).withCredentials(Credentials.simpleUser(OWN_USER)));
  }
}
