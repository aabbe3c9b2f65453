package dev.bobbin.core.policy.fair;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A queue tree looked up by path: each queue with the chain of queues from the root down to it. */
final class QueueIndex {
  private final QueueSpec root;
  private final Map<String, List<QueueSpec>> chains = new LinkedHashMap<>();

  private QueueIndex(QueueSpec root) {
    this.root = root;
    walk(root, List.of());
  }

  static QueueIndex of(QueueSpec root) {
    return new QueueIndex(root);
  }

  QueueSpec root() {
    return root;
  }

  /** Every queue, parents before their children. */
  List<QueueSpec> queues() {
    List<QueueSpec> out = new ArrayList<>(chains.size());
    chains.values().forEach(c -> out.add(c.get(c.size() - 1)));
    return out;
  }

  boolean isLeaf(String path) {
    List<QueueSpec> chain = chains.get(path);
    return chain != null && chain.get(chain.size() - 1).isLeaf();
  }

  /** The queues from the root down to {@code path}, both included; empty for an unknown path. */
  List<QueueSpec> chain(String path) {
    return chains.getOrDefault(path, List.of());
  }

  QueueSpec get(String path) {
    List<QueueSpec> chain = chains.get(path);
    return chain == null ? null : chain.get(chain.size() - 1);
  }

  /** Hadoop raises a max share that is below the min share to the min share, per resource type. */
  static Resource effectiveMax(QueueSpec q) {
    return new Resource(
        Math.max(q.maxShare().memory(), q.minShare().memory()),
        Math.max(q.maxShare().vCores(), q.minShare().vCores()));
  }

  private void walk(QueueSpec q, List<QueueSpec> above) {
    List<QueueSpec> chain = new ArrayList<>(above);
    chain.add(q);
    chains.put(q.path(), List.copyOf(chain));
    q.children().forEach(c -> walk(c, chain));
  }
}
