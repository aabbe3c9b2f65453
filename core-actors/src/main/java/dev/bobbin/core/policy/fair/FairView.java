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
 */
public record FairView(QueueSpec root, FairShares shares, Resource cluster, Map<String, LeafApps> leaves)
    implements SchedulerView {

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
    m.put("reservedResources", Resource.NONE);
    m.put("allocatedContainers", apps.containers());
    m.put("pendingContainers", apps.pendingContainers());
    m.put("reservedContainers", 0);
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

  /** Hadoop reports a max share raised to the min share and clipped to the cluster. */
  private Resource clip(Resource max) {
    return new Resource(Math.min(max.memory(), cluster.memory()), Math.min(max.vCores(), cluster.vCores()));
  }
}
