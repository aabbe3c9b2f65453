package dev.bobbin.config.capacity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queues by full path and by short name, as Hadoop's queue store resolves names: a full path
 * ({@code root.a.a1}) or the last part alone ({@code a1}) when only one queue has it.
 */
final class QueueIndex {
  private final Map<String, CapacityQueue> byPath = new LinkedHashMap<>();
  private final Map<String, List<CapacityQueue>> byName = new LinkedHashMap<>();

  QueueIndex(CapacityQueue root) {
    add(root);
  }

  private void add(CapacityQueue q) {
    byPath.put(q.path().full(), q);
    byName.computeIfAbsent(q.path().name(), n -> new ArrayList<>()).add(q);
    q.children().forEach(this::add);
  }

  /** Every queue by full path, parents before their children. */
  Map<String, CapacityQueue> all() {
    return Collections.unmodifiableMap(byPath);
  }

  Optional<CapacityQueue> find(String name) {
    CapacityQueue q = byPath.get(name);
    if (q != null) return Optional.of(q);
    List<CapacityQueue> named = byName.get(name);
    return named != null && named.size() == 1 ? Optional.of(named.get(0)) : Optional.empty();
  }

  boolean isAmbiguous(String name) {
    return !byPath.containsKey(name) && byName.getOrDefault(name, List.of()).size() > 1;
  }
}
