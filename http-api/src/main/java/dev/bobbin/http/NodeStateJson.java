package dev.bobbin.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.protocol.NodeState;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;

/**
 * What an administrator asks of a node's service: the body of {@code PUT /ws/v1/cluster/nodes/{id}/state}
 * ({@code {"state":"DECOMMISSIONING","decommissionTimeout":SECONDS}}) and a refresh's {@code graceful}
 * timeout. Anything else is refused, naming it.
 */
final class NodeStateJson {
  static final EnumSet<NodeState> SETTABLE =
      EnumSet.of(NodeState.RUNNING, NodeState.DECOMMISSIONING, NodeState.DECOMMISSIONED);

  static final String GRACEFUL_DEFAULT = "default";

  private NodeStateJson() {}

  static NodeState state(JsonNode body) {
    for (var it = body.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!f.equals("state") && !f.equals("decommissionTimeout")) {
        throw Rejection.badRequest("Unknown field " + f + "; a node state update has state and decommissionTimeout");
      }
    }
    String s = body.path("state").asText("");
    try {
      NodeState state = NodeState.valueOf(s.trim().toUpperCase(Locale.ROOT));
      if (SETTABLE.contains(state)) return state;
    } catch (IllegalArgumentException e) {
      // refused below
    }
    throw Rejection.badRequest("Invalid node state '" + s + "'; expected one of " + SETTABLE);
  }

  /** The body's decommissionTimeout in seconds; empty for the configured default. */
  static Optional<Duration> timeout(JsonNode body) {
    JsonNode t = body.get("decommissionTimeout");
    if (t == null || t.isNull()) return Optional.empty();
    if (!t.canConvertToLong() || t.asLong() < 0) {
      throw Rejection.badRequest("Invalid decommissionTimeout " + t + "; expected seconds, 0 or more");
    }
    return Optional.of(Duration.ofSeconds(t.asLong()));
  }

  /**
   * A refresh's {@code graceful} parameter: absent for a forced decommission (null), empty or
   * {@code default} for the configured timeout, else seconds.
   */
  static Optional<Duration> graceful(Optional<String> param) {
    if (param.isEmpty()) return null;
    String v = param.get().trim();
    if (v.isEmpty() || v.equals(GRACEFUL_DEFAULT)) return Optional.empty();
    try {
      long seconds = Long.parseLong(v);
      if (seconds >= 0) return Optional.of(Duration.ofSeconds(seconds));
    } catch (NumberFormatException e) {
      // refused below
    }
    throw Rejection.badRequest("Invalid graceful " + v + "; expected a decommission timeout in seconds, 0 or more");
  }
}
