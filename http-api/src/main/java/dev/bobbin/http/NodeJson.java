package dev.bobbin.http;

import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.NodeState;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** YARN's {@code NodeInfo} shape and the {@code states} filter of {@code GET /nodes}. */
final class NodeJson {
  private NodeJson() {}

  static Set<NodeState> parseStates(String param) {
    if (param == null || param.isBlank()) return EnumSet.allOf(NodeState.class);
    Set<NodeState> out = EnumSet.noneOf(NodeState.class);
    for (String s : param.split(",")) {
      if (s.isBlank()) continue;
      try {
        out.add(NodeState.valueOf(s.trim().toUpperCase(Locale.ROOT)));
      } catch (IllegalArgumentException e) {
        throw Rejection.badRequest("Invalid node state " + s.trim() + "; known: " + EnumSet.allOf(NodeState.class));
      }
    }
    return out;
  }

  static Map<String, Object> node(SchedulerProtocol.NodeReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    boolean active = r.state().isAnswered();
    m.put("rack", r.rack());
    m.put("state", r.state().name());
    m.put("id", r.nodeId());
    m.put("nodeHostName", r.host());
    m.put("nodeHTTPAddress", active ? r.httpAddress() : "");
    m.put("lastHealthUpdate", r.lastHealthUpdate());
    m.put("version", Version.VERSION);
    m.put("healthReport", r.healthReport());
    m.put("numContainers", r.numContainers());
    m.put("usedMemoryMB", r.used().memory());
    m.put("availMemoryMB", r.capacity().memory() - r.used().memory());
    m.put("usedVirtualCores", r.used().vCores());
    m.put("availableVirtualCores", r.capacity().vCores() - r.used().vCores());
    m.put("totalResource", r.capacity());
    m.put("usedResource", r.used());
    m.put("availableResource", r.capacity().minus(r.used()));
    m.put("nodeLabels", List.of());
    return m;
  }
}
