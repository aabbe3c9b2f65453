package dev.bobbin.core.scheduler;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scheduler's read-only reports of its model: the node list, and usage by application (with what
 * the policy says keeps it waiting) and in all.
 */
final class ModelReports {
  private ModelReports() {}

  static SchedulerProtocol.NodesReport nodes(SchedulerModel model) {
    List<SchedulerProtocol.NodeReport> out = new ArrayList<>();
    for (SchedNode n : model.nodes()) {
      NodeEntity.Registration r = n.registration;
      out.add(new SchedulerProtocol.NodeReport(n.id(), r.host(), r.httpAddress(), r.rack(), n.state, n.countedCapacity(),
          n.allocated, n.containers.size(), n.lastHeartbeat, n.healthReport, n.lastHealthUpdate));
    }
    return new SchedulerProtocol.NodesReport(out);
  }

  /** Containers being completed no longer count for their application. */
  static SchedulerProtocol.UsageReport usage(SchedulerModel model, PolicySet policy, long containersAllocated) {
    Map<String, SchedulerProtocol.AppUsage> usage = new HashMap<>();
    for (SchedApp app : model.apps()) usage.put(app.appId, usage(app, model, policy));
    Resource cap = Resource.NONE;
    Resource used = Resource.NONE;
    int active = 0;
    Map<NodeState, Integer> out = new java.util.EnumMap<>(NodeState.class);
    for (SchedNode n : model.nodes()) {
      if (n.countsInCluster()) {
        cap = cap.plus(n.countedCapacity());
        used = used.plus(n.allocated);
      }
      if (n.state.isUsable()) active++;
      else out.merge(n.state, 1, Integer::sum);
    }
    return new SchedulerProtocol.UsageReport(usage, cap, used, active, out.getOrDefault(NodeState.LOST, 0),
        out.getOrDefault(NodeState.UNHEALTHY, 0), out.getOrDefault(NodeState.DECOMMISSIONING, 0),
        out.getOrDefault(NodeState.DECOMMISSIONED, 0), out.getOrDefault(NodeState.SHUTDOWN, 0), containersAllocated);
  }

  /** One application's usage, and what the cluster holds: what its report needs. */
  static SchedulerProtocol.AppUsageReport appUsage(SchedulerModel model, PolicySet policy, String appId) {
    SchedApp app = model.app(appId);
    Resource cap = Resource.NONE;
    for (SchedNode n : model.nodes()) if (n.countsInCluster()) cap = cap.plus(n.countedCapacity());
    return new SchedulerProtocol.AppUsageReport(app == null ? null : usage(app, model, policy), cap);
  }

  private static SchedulerProtocol.AppUsage usage(SchedApp app, SchedulerModel model, PolicySet policy) {
    Resource used = Resource.NONE;
    List<SchedContainer> live = ModelView.live(app, model);
    for (SchedContainer c : live) used = used.plus(c.allocation.resource());
    return new SchedulerProtocol.AppUsage(used, live.size(), app.progress, policy.diagnostics(app.appId).orElse(""));
  }

  static SchedulerProtocol.AppContainers appContainers(SchedulerModel model, String appId) {
    List<SchedulerProtocol.AppContainer> out = new ArrayList<>();
    for (SchedContainer c : model.liveContainersOf(appId)) {
      if (!c.isLive()) continue;
      var a = c.allocation;
      out.add(new SchedulerProtocol.AppContainer(a.containerId(), a.attemptId(), a.nodeId(), a.nodeHttpAddress(),
          a.resource(), a.priority(), a.am(), c.phase == SchedContainer.Phase.RUNNING, c.allocatedTime));
    }
    return new SchedulerProtocol.AppContainers(out);
  }
}
