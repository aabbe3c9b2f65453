package dev.bobbin.core.policy.fair;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cluster the Fair policy set runs against tick by tick, as the scheduler actor drives it: each
 * tick is one periodic update, its preemptions marked with their kill time, the containers due
 * killed, and then one assignment pass whose placements are carried out at once. Nodes are walked
 * in the order they were added, as the scheduler registers them.
 */
final class SimulatedCluster implements ClusterView {
  private final Map<String, NodeView> nodes = new LinkedHashMap<>();
  private final Map<String, ContainerSnapshot> containers = new LinkedHashMap<>();
  private final Map<String, App> apps = new LinkedHashMap<>();
  private final Map<String, Long> killAt = new LinkedHashMap<>();
  private final long waitBeforeKillMillis;
  private int serial;

  private static final class App {
    final String id;
    final String queue;
    final long submitTime;
    List<Ask> asks;

    App(String id, String queue, long submitTime, List<Ask> asks) {
      this.id = id;
      this.queue = queue;
      this.submitTime = submitTime;
      this.asks = asks;
    }
  }

  /** What one tick did. */
  record Tick(long now, PolicyUpdate update, List<String> killed, List<Assignment> placed) {
    List<String> preempted() {
      return update.preemptions().stream().flatMap(p -> p.victims().stream())
          .flatMap(v -> v.containerIds().stream()).toList();
    }
  }

  SimulatedCluster(long waitBeforeKillMillis) {
    this.waitBeforeKillMillis = waitBeforeKillMillis;
  }

  /** A Fair policy set from a {@code bobbin.scheduler.fair} section. */
  static FairPolicySet policy(String fairSection) {
    var root = ConfigFactory.parseString("bobbin.scheduler.fair {" + fairSection + "}").resolve();
    return new FairPolicySet(new FairSetup(FairSchedulerConfig.load(root), FairGlobalSettings.from(root)));
  }

  SimulatedCluster node(String id, Resource capacity) {
    return node(id, "/rack", capacity);
  }

  /** A node whose host is its id. */
  SimulatedCluster node(String id, String rack, Resource capacity) {
    nodes.put(id, new NodeView(id, id, rack, capacity, Resource.NONE));
    return this;
  }

  SimulatedCluster app(String id, String queue, long submitTime, Ask... asks) {
    apps.put(id, new App(id, queue, submitTime, List.of(asks)));
    return this;
  }

  /** A container already running, {@code <app>-<n>}. */
  String run(String appId, String nodeId, Resource size, boolean am, long time) {
    String id = appId + "-" + (++serial);
    containers.put(id, new ContainerSnapshot(id, appId, nodeId, size, am, time));
    return id;
  }

  /** The application withdraws everything it asked for. */
  void cancelAsks(String appId) {
    apps.get(appId).asks = List.of();
  }

  /** A container ends of itself. */
  void stop(String containerId) {
    containers.remove(containerId);
  }

  Tick tick(FairPolicySet policy, long now) {
    PolicyUpdate update = policy.update(this, now);
    for (Preemption p : update.preemptions()) {
      for (Preemption.Victim v : p.victims()) {
        for (String id : v.containerIds()) killAt.putIfAbsent(id, now + waitBeforeKillMillis);
      }
    }
    List<String> killed = new ArrayList<>();
    killAt.entrySet().removeIf(e -> {
      if (e.getValue() > now) return false;
      containers.remove(e.getKey());
      killed.add(e.getKey());
      return true;
    });
    List<Assignment> placed = policy.assign(this, Integer.MAX_VALUE).assignments();
    for (Assignment a : placed) {
      App app = apps.get(a.appId());
      NodeView node = nodes.get(a.nodeId());
      app.asks = Asks.afterPlacement(app.asks, a.ask(), node.host(), node.nodeId(), node.rack());
      run(a.appId(), a.nodeId(), a.capability(), a.ask().am(), now);
      policy.placed(a);
    }
    return new Tick(now, update, killed, placed);
  }

  List<String> containersOf(String appId) {
    return containers.values().stream().filter(c -> c.appId().equals(appId)).map(ContainerSnapshot::containerId)
        .toList();
  }

  Resource usage(String appId) {
    Resource total = Resource.NONE;
    for (ContainerSnapshot c : containers.values()) if (c.appId().equals(appId)) total = total.plus(c.resource());
    return total;
  }

  @Override
  public List<NodeView> usableNodes() {
    List<NodeView> out = new ArrayList<>();
    for (NodeView n : nodes.values()) {
      Resource allocated = Resource.NONE;
      for (ContainerSnapshot c : containers.values()) if (c.nodeId().equals(n.nodeId())) allocated = allocated.plus(c.resource());
      out.add(new NodeView(n.nodeId(), n.host(), n.rack(), n.capacity(), allocated));
    }
    return out;
  }

  @Override
  public Resource capacity() {
    Resource total = Resource.NONE;
    for (NodeView n : nodes.values()) total = total.plus(n.capacity());
    return total;
  }

  @Override
  public Resource used() {
    Resource total = Resource.NONE;
    for (ContainerSnapshot c : containers.values()) total = total.plus(c.resource());
    return total;
  }

  @Override
  public List<AppView> waiting() {
    return apps.values().stream().filter(a -> !a.asks.isEmpty())
        .map(a -> new AppView(a.id, a.id + "_01", a.queue, 0, a.submitTime, a.asks)).toList();
  }

  @Override
  public List<AppSnapshot> apps() {
    List<AppSnapshot> out = new ArrayList<>();
    for (App a : apps.values()) {
      Resource pending = Resource.NONE;
      Resource largest = Resource.NONE;
      for (Ask ask : a.asks) {
        if (ask.isAny()) pending = pending.plus(ask.capability().times(ask.count()));
        if (ask.capability().memory() > largest.memory()) largest = ask.capability();
      }
      Resource am = Resource.NONE;
      for (ContainerSnapshot c : containers.values()) if (c.appId().equals(a.id) && c.am()) am = am.plus(c.resource());
      out.add(new AppSnapshot(a.id, a.id + "_01", a.queue, 0, a.submitTime, usage(a.id), am, pending, largest));
    }
    return out;
  }

  @Override
  public Resource amUsed() {
    Resource total = Resource.NONE;
    for (ContainerSnapshot c : containers.values()) if (c.am()) total = total.plus(c.resource());
    return total;
  }

  @Override
  public List<ContainerSnapshot> preemptable() {
    return List.copyOf(containers.values());
  }

  @Override
  public Set<String> preempting() {
    return Set.copyOf(killAt.keySet());
  }

  @Override
  public Map<String, LeafApps> leafApps() {
    return Map.of();
  }

  @Override
  public int liveContainers() {
    return containers.size();
  }
}
