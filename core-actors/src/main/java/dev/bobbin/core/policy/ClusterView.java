package dev.bobbin.core.policy;

import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a policy reads of the scheduler's model, for one call. Read-only: a policy never changes
 * what it is given. Each part is computed when first asked for, so a policy pays only for what it
 * reads (a FIFO pass never builds the per-application usage a fair pass needs).
 */
public interface ClusterView {
  /** The nodes that can take containers; {@link NodeView#allocated()} counts placements still being written. */
  List<NodeView> usableNodes();

  /** What the usable nodes hold together. */
  Resource capacity();

  /** What is allocated on the usable nodes. */
  Resource used();

  /** Applications with outstanding asks, in the order they joined; queues are full paths. */
  List<AppView> waiting();

  /** Every application the scheduler follows, with its usage; queues are full paths. */
  List<AppSnapshot> apps();

  /**
   * The user of each followed application, by id. Only the capacity policy reads it (user limits);
   * a view made for the other families may know none.
   */
  default Map<String, String> users() {
    return Map.of();
  }

  /** What the live AM containers hold together. */
  Resource amUsed();

  /** The containers preemption may take: allocated or running, except AM containers left to exit. */
  List<ContainerSnapshot> preemptable();

  /** Containers already being taken back, by id. */
  Set<String> preempting();

  /** Per leaf queue (full path): its applications and their containers, for the scheduler view. */
  Map<String, LeafApps> leafApps();

  /** Live containers on usable nodes. */
  int liveContainers();
}
