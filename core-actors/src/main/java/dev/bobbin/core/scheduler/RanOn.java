package dev.bobbin.core.scheduler;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The nodes each application had containers on, as in YARN's "ran nodes": when it ends, only these
 * are told to clean it up, not every node. Kept for live applications, those between attempts and
 * those whose AM container is left to finish.
 */
final class RanOn {
  private final Map<String, Set<String>> nodesByApp = new HashMap<>();

  void add(String appId, String nodeId) {
    nodesByApp.computeIfAbsent(appId, k -> new HashSet<>()).add(nodeId);
  }

  /** The application's nodes, forgotten here. */
  Set<String> take(String appId) {
    Set<String> nodes = nodesByApp.remove(appId);
    return nodes == null ? Set.of() : nodes;
  }

  List<String> apps() {
    return List.copyOf(nodesByApp.keySet());
  }
}
