package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.AppSnapshot;
import dev.bobbin.core.policy.fair.ContainerSnapshot;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/** What the Fair policy's pure code is given of the scheduler's model. */
final class FairInputs {
  private FairInputs() {}

  static List<AppSnapshot> apps(Collection<SchedApp> apps) {
    List<AppSnapshot> out = new ArrayList<>(apps.size());
    for (SchedApp app : apps) {
      out.add(new AppSnapshot(app.appId, app.attemptId, "root." + app.queue, app.priority, app.submitTime,
          app.used(), app.amUsed(), app.pending(), app.largestPendingAsk()));
    }
    return out;
  }

  /** What the usable nodes hold together. */
  static Resource capacity(Collection<SchedNode> nodes) {
    Resource cap = Resource.NONE;
    for (SchedNode n : nodes) if (n.state.isUsable()) cap = cap.plus(n.capacity());
    return cap;
  }

  static List<NodeView> usableNodes(Collection<SchedNode> nodes) {
    List<NodeView> usable = new ArrayList<>();
    for (SchedNode n : nodes) if (n.state.isUsable()) usable.add(n.view());
    return usable;
  }

  /**
   * The containers preemption may take: allocated or running, except AM containers left to exit
   * after their AM unregistered ({@code finishing}).
   */
  static List<ContainerSnapshot> preemptable(Collection<SchedContainer> containers, Set<String> finishing) {
    List<ContainerSnapshot> live = new ArrayList<>();
    for (SchedContainer c : containers) {
      if (finishing.contains(c.id())) continue;
      if (c.phase == SchedContainer.Phase.ALLOCATED || c.phase == SchedContainer.Phase.RUNNING) {
        ContainerEntity.Allocation a = c.allocation;
        live.add(new ContainerSnapshot(a.containerId(), a.appId(), a.nodeId(), a.resource(), a.am(), c.allocatedTime));
      }
    }
    return live;
  }
}
