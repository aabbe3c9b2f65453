package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Fair policy's latest computation, shown in Hadoop's {@code fairScheduler} shape of
 * {@code GET /ws/v1/cluster/scheduler}.
 *
 * @param leaves per leaf queue path, its applications and their containers
 * @param reserved per leaf queue path, the containers its applications hold nodes reserved for
 */
public record FairView(QueueSpec root, FairShares shares, Resource cluster, Map<String, LeafApps> leaves,
    Map<String, Reserved> reserved) implements SchedulerView {

  /** Containers nodes are reserved for, and what they add up to. */
  public record Reserved(Resource resources, int containers) {
    public static final Reserved NONE = new Reserved(Resource.NONE, 0);

    public Reserved plus(Reserved o) {
      return new Reserved(resources.plus(o.resources), containers + o.containers);
    }
  }

  /** With no node reserved. */
  public FairView(QueueSpec root, FairShares shares, Resource cluster, Map<String, LeafApps> leaves) {
    this(root, shares, cluster, leaves, Map.of());
  }

  @Override
  public Map<String, Object> schedulerInfo() {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("type", "fairScheduler");
    info.put("rootQueue", queue(root, true));
    return info;
  }

  private Map<String, Object> queue(QueueSpec q, boolean preemptableAbove) {
    FairShares.QueueShare share = shares.queues().get(q.path());
    LeafApps apps = leaves.getOrDefault(q.path(), LeafApps.NONE);
    boolean preemptable = preemptableAbove && q.allowPreemptionFrom();
    Map<String, Object> m = new LinkedHashMap<>();
    if (q.isLeaf()) m.put("type", "fairSchedulerLeafQueueInfo");
    m.put("queueName", q.path());
    m.put("schedulingPolicy", q.policy().name().toLowerCase(Locale.ROOT));
    m.put("weight", q.weight());
    m.put("maxApps", q.maxRunningApps());
    m.put("minResources", q.minShare());
    m.put("maxResources", clip(QueueIndex.effectiveMax(q)));
    m.put("usedResources", share == null ? Resource.NONE : share.usage());
    m.put("amUsedResources", apps.amUsed());
    m.put("amMaxResources", share == null || q.maxAmShare() < 0 ? Resource.NONE
        : new Resource((long) (share.fairShare().memory() * q.maxAmShare()),
            (int) (share.fairShare().vCores() * q.maxAmShare())));
    m.put("demandResources", share == null ? Resource.NONE : share.demand());
    m.put("steadyFairResources", share == null ? Resource.NONE : share.steadyFairShare());
    m.put("fairResources", share == null ? Resource.NONE : share.fairShare());
    m.put("clusterResources", cluster);
    Reserved held = reservedUnder(q);
    m.put("reservedResources", held.resources());
    m.put("allocatedContainers", apps.containers());
    m.put("pendingContainers", apps.pendingContainers());
    m.put("reservedContainers", held.containers());
    m.put("preemptable", preemptable);
    m.put("fairSharePreemptionTimeout",
        q.fairSharePreemptionTimeout() == null ? -1 : q.fairSharePreemptionTimeout().toMillis());
    m.put("fairSharePreemptionThreshold", q.fairSharePreemptionThreshold());
    m.put("minSharePreemptionTimeout",
        q.minSharePreemptionTimeout() == null ? -1 : q.minSharePreemptionTimeout().toMillis());
    if (q.isLeaf()) {
      m.put("numActiveApps", apps.active());
      m.put("numPendingApps", apps.pending());
    } else {
      List<Object> children = new ArrayList<>();
      for (QueueSpec c : q.children()) children.add(queue(c, preemptable));
      m.put("childQueues", Map.of("queue", children));
    }
    return m;
  }

  /** A queue's reservations are those of the leaves under it, as Hadoop's queue metrics add up. */
  private Reserved reservedUnder(QueueSpec q) {
    if (q.isLeaf()) return reserved.getOrDefault(q.path(), Reserved.NONE);
    Reserved total = Reserved.NONE;
    for (QueueSpec c : q.children()) total = total.plus(reservedUnder(c));
    return total;
  }

  /** Hadoop reports a max share raised to the min share and clipped to the cluster. */
  private Resource clip(Resource max) {
    return new Resource(Math.min(max.memory(), cluster.memory()), Math.min(max.vCores(), cluster.vCores()));
  }
}
