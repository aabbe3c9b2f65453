package dev.bobbin.core.scheduler;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The scheduler's read-only views of its model: the node list, usage, and the Fair view's applications. */
final class ModelReports {
  private ModelReports() {}

  static Scheduler.NodesReport nodes(Collection<SchedNode> nodes) {
    List<Scheduler.NodeReport> out = new ArrayList<>();
    for (SchedNode n : nodes) {
      NodeEntity.Registration r = n.registration;
      out.add(new Scheduler.NodeReport(n.id(), r.host(), r.httpAddress(), r.rack(), n.state, r.capability(),
          n.allocated, n.containers.size(), n.lastHeartbeat, n.healthReport));
    }
    return new Scheduler.NodesReport(out);
  }

  /** Containers being completed no longer count for their application. */
  static Scheduler.UsageReport usage(Collection<SchedApp> apps, Map<String, SchedContainer> containers,
      Collection<SchedNode> nodes, long containersAllocated) {
    Map<String, Scheduler.AppUsage> usage = new HashMap<>();
    for (SchedApp app : apps) {
      Resource used = Resource.NONE;
      List<SchedContainer> live = live(app, containers);
      for (SchedContainer c : live) used = used.plus(c.allocation.resource());
      usage.put(app.appId, new Scheduler.AppUsage(used, live.size(), app.progress));
    }
    Resource cap = Resource.NONE;
    Resource used = Resource.NONE;
    int active = 0;
    int lost = 0;
    for (SchedNode n : nodes) {
      if (n.state.isUsable()) {
        cap = cap.plus(n.capacity());
        used = used.plus(n.allocated);
        active++;
      } else if (n.state == NodeState.LOST) {
        lost++;
      }
    }
    return new Scheduler.UsageReport(usage, cap, used, active, lost, containersAllocated);
  }

  /** The Fair view's applications per leaf queue: active ones have a live container, the others wait for their AM. */
  static Map<String, FairView.LeafApps> leafApps(Collection<SchedApp> apps, Map<String, SchedContainer> containers) {
    Map<String, FairView.LeafApps> leaves = new HashMap<>();
    for (SchedApp app : apps) {
      Resource am = Resource.NONE;
      List<SchedContainer> live = live(app, containers);
      for (SchedContainer c : live) if (c.allocation.am()) am = am.plus(c.allocation.resource());
      int wanted = app.asks().stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      boolean active = !live.isEmpty();
      leaves.merge("root." + app.queue, new FairView.LeafApps(active ? 1 : 0, active ? 0 : 1, am, live.size(), wanted),
          (a, b) -> new FairView.LeafApps(a.active() + b.active(), a.pending() + b.pending(), a.amUsed().plus(b.amUsed()),
              a.containers() + b.containers(), a.pendingContainers() + b.pendingContainers()));
    }
    return leaves;
  }

  /** An application's containers that are not being completed. */
  private static List<SchedContainer> live(SchedApp app, Map<String, SchedContainer> containers) {
    List<SchedContainer> live = new ArrayList<>();
    for (String id : app.containers) {
      SchedContainer c = containers.get(id);
      if (c != null && c.isLive()) live.add(c);
    }
    return live;
  }
}
