package dev.bobbin.core.policy.fair;

import dev.bobbin.config.fair.EffectiveQueue;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.fair.QueuePolicy;
import dev.bobbin.config.fair.QueueType;
import dev.bobbin.config.fair.ResourceSpec;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the Fair configuration (and the queues placement created at run time) into the policy's
 * queue tree, with inherited values resolved and percentages taken of the current cluster. The
 * root's max share is the cluster; it bounds nothing the others do not, and stands in for the
 * cluster's size where no share has been computed yet.
 */
public final class FairQueueTree {
  private static final Resource UNLIMITED = new Resource(Long.MAX_VALUE, Integer.MAX_VALUE);

  private FairQueueTree() {}

  /** @param dynamic queues placement created, by path, that the configuration does not name */
  public static QueueSpec build(FairSchedulerConfig config, Map<String, QueueType> dynamic, Resource cluster) {
    Map<String, QueueType> types = new LinkedHashMap<>();
    config.queues().forEach((path, q) -> types.put(path, config.effective(path).type()));
    dynamic.forEach(types::putIfAbsent);
    Map<String, List<String>> children = new LinkedHashMap<>();
    for (String path : types.keySet()) {
      int dot = path.lastIndexOf('.');
      if (dot > 0) children.computeIfAbsent(path.substring(0, dot), k -> new ArrayList<>()).add(path);
    }
    return spec("root", config, types, children, cluster);
  }

  private static QueueSpec spec(String path, FairSchedulerConfig config, Map<String, QueueType> types,
      Map<String, List<String>> children, Resource cluster) {
    EffectiveQueue q = config.effective(path, types.getOrDefault(path, QueueType.LEAF));
    List<QueueSpec> kids = new ArrayList<>();
    for (String c : children.getOrDefault(path, List.of())) kids.add(spec(c, config, types, children, cluster));
    Resource max = resolve(q.maxResources(), cluster, true);
    if (path.equals("root")) max = cluster;
    return new QueueSpec(path, q.weight(), resolve(q.minResources(), cluster, false),
        max, kind(q.schedulingPolicy()), q.maxRunningApps(),
        (float) q.maxAMShare(), q.preemptable(), q.fairSharePreemptionTimeout().orElse(null),
        q.fairSharePreemptionThreshold(), q.minSharePreemptionTimeout().orElse(null), kids);
  }

  /**
   * Amounts as Hadoop holds them: a limit is not clipped to the cluster (the share search sees it
   * whole, which matters where mins give a parent more than the cluster), and an unlimited one is
   * {@link Long#MAX_VALUE} MB and {@link Integer#MAX_VALUE} vcores.
   */
  private static Resource resolve(ResourceSpec spec, Resource cluster, boolean limit) {
    if (spec == null) return limit ? UNLIMITED : Resource.NONE;
    return new Resource(Math.max(0, spec.memoryMb(cluster.memory())), Math.max(0, spec.vcores(cluster.vCores())));
  }

  private static FairPolicyKind kind(QueuePolicy p) {
    return switch (p) {
      case FAIR -> FairPolicyKind.FAIR;
      case DRF -> FairPolicyKind.DRF;
      case FIFO -> FairPolicyKind.FIFO;
    };
  }
}
