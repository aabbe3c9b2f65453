package dev.bobbin.core.policy.capacity;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.ClusterView;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cluster the capacity policy set runs against in tests, with the scheduler's part played by
 * hand: it follows applications, hands the policy its view, and carries out each plan (the node
 * takes the container, the application's asks shrink). Containers are released by the test.
 */
final class CapacityCluster implements ClusterView {
  static final long GB = 1024;

  /** A configuration from the {@code bobbin.scheduler.capacity} section's contents. */
  static CapacitySchedulerConfig config(String hocon) {
    return CapacitySchedulerConfig.fromHocon(ConfigFactory.parseString("bobbin.scheduler.capacity {" + hocon + "}"));
  }

  static PolicyConfig policyConfig(String hocon) {
    return new PolicyConfig(new SchedulerSettings(SchedulerPolicy.CAPACITY, List.of("default"), 1024, 1, 8192, 4,
        Duration.ofMillis(100), 2000, 0.5), null, config(hocon));
  }

  record Container(String id, String appId, String nodeId, Resource size, boolean am) {}

  static final class App {
    final String appId;
    final String queue;
    final String user;
    final int priority;
    final long submitTime;
    List<Ask> asks = new ArrayList<>();
    final List<Container> containers = new ArrayList<>();

    App(String appId, String queue, String user, int priority, long submitTime) {
      this.appId = appId;
      this.queue = queue;
      this.user = user;
      this.priority = priority;
      this.submitTime = submitTime;
    }

    Resource used() {
      return containers.stream().map(Container::size).reduce(Resource.NONE, Resource::plus);
    }

    Resource amUsed() {
      return containers.stream().filter(Container::am).map(Container::size).reduce(Resource.NONE, Resource::plus);
    }

    Resource pending() {
      Resource total = Resource.NONE;
      for (Ask a : asks) if (a.isAny()) total = total.plus(a.capability().times(a.count()));
      return total;
    }
  }

  final CapacityPolicySet policy;
  private final Map<String, NodeView> nodes = new LinkedHashMap<>();
  private final Map<String, App> apps = new LinkedHashMap<>();
  private int containerSeq;
  private final Set<String> preempting = new java.util.LinkedHashSet<>();
  private final List<String> killed = new ArrayList<>();
  private long clock;

  CapacityCluster(CapacitySchedulerConfig config) {
    this.policy = new CapacityPolicySet(config);
  }

  CapacityCluster(String hocon) {
    this(config(hocon));
  }

  CapacityCluster node(String id, long memory, int vCores) {
    nodes.put(id, new NodeView(id, id, "/default-rack", new Resource(memory, vCores), Resource.NONE));
    return this;
  }

  /** {@code count} nodes of {@code memory} MB and {@code vCores} each, n1, n2, ... */
  CapacityCluster nodes(int count, long memory, int vCores) {
    for (int i = 1; i <= count; i++) node("n" + i, memory, vCores);
    return this;
  }

  /** An application already running its AM (or asking for none): only its workers' asks matter. */
  App submit(String appId, String queue, String user) {
    return submit(appId, queue, user, 0);
  }

  App submit(String appId, String queue, String user, int priority) {
    App app = new App(appId, QueuePath.of(queue).full(), user, priority, ++clock);
    apps.put(appId, app);
    policy.follow(appId, QueuePath.of(queue));
    return app;
  }

  /** An application whose attempt waits for its AM container of {@code am}. */
  App submitWithAm(String appId, String queue, String user, Resource am) {
    App app = submit(appId, queue, user);
    app.asks.add(new Ask(0, Ask.ANY, am, 1, true, -1, true));
    return app;
  }

  CapacityCluster ask(String appId, Resource size, int count) {
    apps.get(appId).asks.add(new Ask(1, Ask.ANY, size, count, true, -1, false));
    return this;
  }

  /** A node in a rack of its own choosing. */
  CapacityCluster node(String id, String rack, long memory, int vCores) {
    nodes.put(id, new NodeView(id, id, rack, new Resource(memory, vCores), Resource.NONE));
    return this;
  }

  /**
   * {@code count} containers of {@code size} wanted on {@code host} in {@code rack}, at priority 1:
   * the host's, the rack's and the {@code *} ask, the rack and {@code *} with {@code relaxLocality}.
   */
  CapacityCluster askOn(String appId, Resource size, int count, String host, String rack, boolean relaxLocality) {
    List<Ask> asks = apps.get(appId).asks;
    asks.add(new Ask(1, host, size, count, true, -1, false));
    asks.add(new Ask(1, rack, size, count, relaxLocality, -1, false));
    asks.add(new Ask(1, Ask.ANY, size, count, relaxLocality, -1, false));
    return this;
  }

  /** One pass of at most {@code limit} placements, carried out. */
  AllocationPlan pass(int limit) {
    AllocationPlan plan = policy.assign(this, limit);
    for (Assignment a : plan.assignments()) carryOut(a);
    return plan;
  }

  /** Passes until one places nothing: what the cluster settles at. */
  List<Assignment> settle() {
    List<Assignment> all = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      Map<String, CapacityReservation> reservedBefore = policy.nodeReservations();
      AllocationPlan plan = pass(Integer.MAX_VALUE);
      if (plan.isEmpty() && policy.nodeReservations().equals(reservedBefore)) return all;
      all.addAll(plan.assignments());
    }
    throw new AssertionError("the cluster never settled");
  }

  private void carryOut(Assignment a) {
    NodeView node = nodes.get(a.nodeId());
    if (!policy.fitsOnNode(a.capability(), node.free())) {
      throw new AssertionError("over-committed " + a.nodeId() + " by " + a);
    }
    nodes.put(node.nodeId(), node.allocate(a.capability()));
    App app = apps.get(a.appId());
    app.asks = Asks.afterPlacement(app.asks, a.ask(), node.host(), node.nodeId(), node.rack());
    app.containers.add(new Container(String.format("c%05d", ++containerSeq), a.appId(), a.nodeId(), a.capability(),
        a.ask().am()));
  }

  /** Its {@code count} newest containers end. */
  void release(String appId, int count) {
    App app = apps.get(appId);
    for (int i = 0; i < count; i++) {
      Container c = app.containers.remove(app.containers.size() - 1);
      NodeView node = nodes.get(c.nodeId());
      nodes.put(node.nodeId(), new NodeView(node.nodeId(), node.host(), node.rack(), node.capacity(),
          node.allocated().minus(c.size())));
    }
  }

  /** The application ends: its containers go, and the policy forgets it. */
  void finish(String appId) {
    release(appId, apps.get(appId).containers.size());
    apps.remove(appId);
    policy.forget(appId);
  }

  App app(String appId) {
    return apps.get(appId);
  }

  /** Memory in GB the queue's applications hold (queue as a full path or below root). */
  long queueGb(String queue) {
    String full = QueuePath.of(queue).full();
    return apps.values().stream().filter(a -> a.queue.equals(full) || a.queue.startsWith(full + "."))
        .mapToLong(a -> a.used().memory()).sum() / GB;
  }

  long userGb(String user) {
    return apps.values().stream().filter(a -> a.user.equals(user)).mapToLong(a -> a.used().memory()).sum() / GB;
  }

  long appGb(String appId) {
    return apps.get(appId).used().memory() / GB;
  }

  Map<String, App> allApps() {
    return apps;
  }

  // ClusterView

  @Override
  public List<NodeView> usableNodes() {
    return List.copyOf(nodes.values());
  }

  @Override
  public Resource capacity() {
    return nodes.values().stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
  }

  @Override
  public Resource used() {
    return nodes.values().stream().map(NodeView::allocated).reduce(Resource.NONE, Resource::plus);
  }

  @Override
  public List<AppView> waiting() {
    List<AppView> out = new ArrayList<>();
    for (App a : apps.values()) {
      if (!a.asks.isEmpty()) out.add(new AppView(a.appId, a.appId + "_1", a.queue, a.priority, a.submitTime, a.asks));
    }
    return out;
  }

  @Override
  public List<AppSnapshot> apps() {
    List<AppSnapshot> out = new ArrayList<>();
    for (App a : apps.values()) {
      out.add(new AppSnapshot(a.appId, a.appId + "_1", a.queue, a.priority, a.submitTime, a.used(), a.amUsed(),
          a.pending(), Resource.NONE));
    }
    return out;
  }

  @Override
  public Map<String, String> users() {
    Map<String, String> out = new HashMap<>();
    apps.values().forEach(a -> out.put(a.appId, a.user));
    return out;
  }

  @Override
  public Resource amUsed() {
    return apps.values().stream().map(App::amUsed).reduce(Resource.NONE, Resource::plus);
  }

  /** Every live container, the newest last (ids in allocation order). */
  @Override
  public List<ContainerSnapshot> preemptable() {
    List<ContainerSnapshot> out = new ArrayList<>();
    for (App a : apps.values()) {
      for (Container c : a.containers) {
        out.add(new ContainerSnapshot(c.id(), c.appId(), c.nodeId(), c.size(), c.am(), 0, c.am() ? 0 : 1, 0));
      }
    }
    out.sort(java.util.Comparator.comparing(ContainerSnapshot::containerId));
    return out;
  }

  @Override
  public Set<String> preempting() {
    return Set.copyOf(preempting);
  }

  /**
   * The policy's periodic update at {@code now}, carried out as the scheduler does: newly marked
   * containers are being taken back, killed ones end (and their applications ask for them again,
   * as an AM does), cancelled ones are kept.
   */
  PolicyUpdate update(long now) {
    return update(now, true);
  }

  /**
   * @param killsEnd whether the containers killed end at once; if not, they stay, being taken back,
   *     until {@link #endKills} (a node has not reported them yet)
   */
  PolicyUpdate update(long now, boolean killsEnd) {
    PolicyUpdate u = policy.update(this, now);
    for (Preemption p : u.preemptions()) {
      for (Preemption.Victim v : p.victims()) preempting.addAll(v.containerIds());
    }
    for (String id : u.kills()) {
      if (!preempting.contains(id)) throw new AssertionError("killed " + id + ", which was not being taken back");
      killed.add(id);
    }
    u.cancelled().forEach(preempting::remove);
    if (killsEnd) endKills();
    return u;
  }

  /** The killed containers end. */
  void endKills() {
    for (String id : killed) {
      preempting.remove(id);
      kill(id);
    }
    killed.clear();
  }

  private void kill(String containerId) {
    for (App app : apps.values()) {
      for (Container c : app.containers) {
        if (!c.id().equals(containerId)) continue;
        app.containers.remove(c);
        NodeView node = nodes.get(c.nodeId());
        nodes.put(node.nodeId(), new NodeView(node.nodeId(), node.host(), node.rack(), node.capacity(),
            node.allocated().minus(c.size())));
        if (!c.am()) ask(app.appId, c.size(), 1);
        return;
      }
    }
    throw new AssertionError("no container " + containerId);
  }

  @Override
  public Map<String, LeafApps> leafApps() {
    Map<String, LeafApps> out = new HashMap<>();
    for (App a : apps.values()) {
      boolean active = !a.containers.isEmpty();
      int wanted = a.asks.stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      out.merge(a.queue, new LeafApps(active ? 1 : 0, active ? 0 : 1, a.amUsed(), a.containers.size(), wanted),
          LeafApps::plus);
    }
    return out;
  }

  @Override
  public int liveContainers() {
    return apps.values().stream().mapToInt(a -> a.containers.size()).sum();
  }
}
