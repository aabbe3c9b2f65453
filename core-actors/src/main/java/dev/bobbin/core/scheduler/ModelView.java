package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The model as a policy reads it, for one call: each part is made when first asked for and kept
 * for the rest of the call. Made anew for every call, since the model changes between them.
 */
final class ModelView implements ClusterView {
  private final SchedulerModel model;
  private List<NodeView> usable;
  private Resource capacity;
  private Resource used;
  private List<AppView> waiting;
  private List<AppSnapshot> apps;
  private Map<String, String> users;

  ModelView(SchedulerModel model) {
    this.model = model;
  }

  @Override
  public List<NodeView> usableNodes() {
    if (usable == null) {
      List<NodeView> views = new ArrayList<>();
      Resource cap = Resource.NONE;
      Resource allocated = Resource.NONE;
      for (SchedNode n : model.nodes()) {
        if (!n.countsInCluster()) continue;
        if (n.state.isUsable()) views.add(n.view());
        cap = cap.plus(n.countedCapacity());
        allocated = allocated.plus(n.allocated);
      }
      usable = views;
      capacity = cap;
      used = allocated;
    }
    return usable;
  }

  @Override
  public Resource capacity() {
    usableNodes();
    return capacity;
  }

  @Override
  public Resource used() {
    usableNodes();
    return used;
  }

  @Override
  public List<AppView> waiting() {
    if (waiting == null) {
      List<AppView> views = new ArrayList<>();
      for (SchedApp app : model.waitingApps()) views.add(app.view());
      waiting = views;
    }
    return waiting;
  }

  @Override
  public List<AppSnapshot> apps() {
    if (apps == null) {
      List<AppSnapshot> out = new ArrayList<>(model.apps().size());
      for (SchedApp app : model.apps()) {
        out.add(new AppSnapshot(app.appId, app.attemptId, app.queue.full(), app.priority, app.submitTime,
            app.used(), app.amUsed(), app.pending(), app.largestPendingAsk()));
      }
      apps = out;
    }
    return apps;
  }

  @Override
  public Map<String, String> users() {
    if (users == null) {
      Map<String, String> out = new HashMap<>();
      for (SchedApp app : model.apps()) out.put(app.appId, app.user);
      users = out;
    }
    return users;
  }

  @Override
  public Resource amUsed() {
    return model.amUsed();
  }

  @Override
  public List<ContainerSnapshot> preemptable() {
    Set<String> leftToExit = model.cleanup().amsLeftToExit();
    List<ContainerSnapshot> live = new ArrayList<>();
    for (SchedContainer c : model.containers()) {
      if (leftToExit.contains(c.id())) continue;
      if (c.phase == SchedContainer.Phase.ALLOCATED || c.phase == SchedContainer.Phase.RUNNING) {
        ContainerEntity.Allocation a = c.allocation;
        live.add(new ContainerSnapshot(a.containerId(), a.appId(), a.nodeId(), a.resource(), a.am(), c.allocatedTime,
            a.priority(), a.allocationRequestId()));
      }
    }
    return live;
  }

  @Override
  public Set<String> preempting() {
    return model.preempting().ids();
  }

  @Override
  public Map<String, LeafApps> leafApps() {
    Map<String, LeafApps> leaves = new HashMap<>();
    for (SchedApp app : model.apps()) {
      Resource am = Resource.NONE;
      List<SchedContainer> live = live(app);
      for (SchedContainer c : live) if (c.allocation.am()) am = am.plus(c.allocation.resource());
      int wanted = app.asks().stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      boolean active = !live.isEmpty();
      leaves.merge(app.queue.full(), new LeafApps(active ? 1 : 0, active ? 0 : 1, am, live.size(), wanted),
          LeafApps::plus);
    }
    return leaves;
  }

  @Override
  public int liveContainers() {
    int n = 0;
    for (SchedApp app : model.apps()) n += live(app).size();
    return n;
  }

  /** An application's containers that are not being completed. */
  static List<SchedContainer> live(SchedApp app, SchedulerModel model) {
    List<SchedContainer> live = new ArrayList<>();
    for (String id : app.containers) {
      SchedContainer c = model.container(id);
      if (c != null && c.isLive()) live.add(c);
    }
    return live;
  }

  private List<SchedContainer> live(SchedApp app) {
    return live(app, model);
  }
}
