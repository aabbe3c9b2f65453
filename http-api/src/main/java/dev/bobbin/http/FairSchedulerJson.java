package dev.bobbin.http;

import dev.bobbin.core.policy.fair.FairShares;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.core.scheduler.FairView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Hadoop's {@code fairScheduler} shape of {@code GET /ws/v1/cluster/scheduler}. */
final class FairSchedulerJson {
  private FairSchedulerJson() {}

  static Map<String, Object> of(FairView view) {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("type", "fairScheduler");
    info.put("rootQueue", queue(view.root(), view, true));
    return Map.of("scheduler", Map.of("schedulerInfo", info));
  }

  private static Map<String, Object> queue(QueueSpec q, FairView view, boolean preemptableAbove) {
    FairShares.QueueShare share = view.shares().queues().get(q.path());
    FairView.LeafApps apps = view.leaves().getOrDefault(q.path(), FairView.LeafApps.NONE);
    boolean preemptable = preemptableAbove && q.allowPreemptionFrom();
    Map<String, Object> m = new LinkedHashMap<>();
    if (q.isLeaf()) m.put("type", "fairSchedulerLeafQueueInfo");
    m.put("queueName", q.path());
    m.put("schedulingPolicy", q.policy().name().toLowerCase(Locale.ROOT));
    m.put("weight", q.weight());
    m.put("maxApps", q.maxRunningApps());
    m.put("minResources", q.minShare());
    m.put("maxResources", q.maxShare());
    m.put("usedResources", share == null ? Resource.NONE : share.usage());
    m.put("amUsedResources", apps.amUsed());
    m.put("amMaxResources", share == null || q.maxAmShare() < 0 ? Resource.NONE
        : new Resource((long) (share.fairShare().memory() * q.maxAmShare()), (int) (share.fairShare().vCores() * q.maxAmShare())));
    m.put("demandResources", share == null ? Resource.NONE : share.demand());
    m.put("steadyFairResources", share == null ? Resource.NONE : share.steadyFairShare());
    m.put("fairResources", share == null ? Resource.NONE : share.fairShare());
    m.put("clusterResources", view.cluster());
    m.put("reservedResources", Resource.NONE);
    m.put("allocatedContainers", apps.containers());
    m.put("pendingContainers", apps.pendingContainers());
    m.put("reservedContainers", 0);
    m.put("preemptable", preemptable);
    m.put("fairSharePreemptionTimeout", q.fairSharePreemptionTimeout() == null ? -1 : q.fairSharePreemptionTimeout().toMillis());
    m.put("fairSharePreemptionThreshold", q.fairSharePreemptionThreshold());
    m.put("minSharePreemptionTimeout", q.minSharePreemptionTimeout() == null ? -1 : q.minSharePreemptionTimeout().toMillis());
    if (q.isLeaf()) {
      m.put("numActiveApps", apps.active());
      m.put("numPendingApps", apps.pending());
    } else {
      List<Object> children = new ArrayList<>();
      for (QueueSpec c : q.children()) children.add(queue(c, view, preemptable));
      m.put("childQueues", Map.of("queue", children));
    }
    return m;
  }
}
