package dev.bobbin.bench;

import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.FifoPolicy;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.CapacityAssigner;
import dev.bobbin.core.policy.capacity.CapacityPlacing;
import dev.bobbin.core.policy.capacity.CapacitySpecs;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.fair.FairAssigner;
import dev.bobbin.core.policy.fair.FairShareCalculator;
import dev.bobbin.core.policy.fair.FairShares;
import dev.bobbin.core.policy.fair.QueueSpec;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pure policies alone, without the actor: one call places every container the cluster holds.
 * All applications run their AM (one per node, round robin); the {@code shape} demand
 * applications ask for the rest. Under Fair a pass first recomputes the shares, as the scheduler's
 * update timer does, and under Capacity the queues' capacities against the cluster, as every pass
 * does; that time counts.
 */
final class PolicyBench {
  record Result(int nodes, int apps, int shape, String policy, int rounds, long placedPerRound,
      double bestRate, double medianRate, double shareNanos) {}

  private PolicyBench() {}

  /** @param policy fifo, fair or capacity */
  static Result run(int nodes, int apps, int shape, String policy, long budgetNanos) {
    boolean fair = policy.equals("fair");
    boolean capacity = policy.equals("capacity");
    Resource cap = Topology.NODE;
    List<NodeView> views = new ArrayList<>(nodes);
    long[] ams = new long[nodes];
    for (int a = 0; a < apps; a++) ams[a % nodes]++;
    for (int i = 0; i < nodes; i++) {
      views.add(new NodeView(Topology.nodeId(i), Topology.nodeHost(i), Topology.rack(i), cap,
          Topology.CONTAINER.times((int) Math.min(ams[i], Topology.SLOTS_PER_NODE))));
    }
    long free = 0;
    for (NodeView v : views) free += v.free().memory() / Topology.CONTAINER.memory();
    int[] demand = Topology.demandApps(shape, apps);
    int perApp = (int) (free / shape);
    List<AppView> asks = new ArrayList<>();
    List<AppSnapshot> snapshots = new ArrayList<>();
    boolean[] isDemand = new boolean[apps];
    for (int d : demand) isDemand[d] = true;
    for (int a = 0; a < apps; a++) {
      String app = String.format("application_1700000000000_%04d", a + 1);
      String attempt = String.format("appattempt_1700000000000_%04d_000001", a + 1);
      String queue = fair || capacity ? "root." + Topology.queue(true, a) : Topology.queue(false, a);
      Resource pending = isDemand[a] ? Topology.CONTAINER.times(perApp) : Resource.NONE;
      snapshots.add(new AppSnapshot(app, attempt, queue, 0, a, Topology.CONTAINER, Topology.CONTAINER, pending,
          isDemand[a] ? Topology.CONTAINER : Resource.NONE));
      if (isDemand[a]) asks.add(new AppView(app, attempt, queue, 0, a, List.of(Ask.anyOf(Topology.CONTAINER, perApp))));
    }
    Resource cluster = cap.times(nodes);
    FairSchedulerConfig config = fair ? Topology.fairSetup().config() : null;
    QueueSpec root = fair ? Topology.fairTree(config, cluster) : null;
    CapacitySpecs specs = capacity ? CapacitySpecs.of(Topology.capacityConfig()) : null;
    Map<String, String> users = new HashMap<>();
    Set<String> activated = new HashSet<>();
    for (AppSnapshot s : snapshots) {
      users.put(s.appId(), "bench");
      activated.add(s.appId());
    }
    FifoPolicy fifo = new FifoPolicy();
    List<String> queues = Topology.fifoQueues();

    List<Double> rates = new ArrayList<>();
    double shareNanos = 0;
    long placed = 0;
    long started = System.nanoTime();
    // One untimed pass warms the JIT; then passes until the budget is spent (at least three).
    for (int round = 0; round < 1000; round++) {
      long t0 = System.nanoTime();
      AllocationPlan plan;
      if (fair) {
        FairShares shares = FairShareCalculator.compute(root, cluster, snapshots);
        long t1 = System.nanoTime();
        plan = FairAssigner.assign(root, shares, views, asks, snapshots, Map.of());
        if (round > 0) shareNanos += t1 - t0;
      } else if (capacity) {
        CapacityTree tree = CapacityTree.compute(specs.root(), cluster, specs.settings());
        long t1 = System.nanoTime();
        plan = CapacityAssigner.assign(tree, views, new CapacityAssigner.Demand(asks, snapshots, users, activated, specs),
            CapacityPlacing.Settings.of(Topology.capacityConfig().schedulerWide()), CapacityPlacing.State.EMPTY,
            Integer.MAX_VALUE).plan();
        if (round > 0) shareNanos += t1 - t0;
      } else {
        plan = fifo.assign(queues, views, asks);
      }
      long t = System.nanoTime() - t0;
      placed = plan.assignments().size();
      if (round > 0) rates.add(placed / (t / 1e9));
      if (round >= 3 && System.nanoTime() - started > budgetNanos) break;
    }
    List<Double> sorted = new ArrayList<>(rates);
    sorted.sort(null);
    return new Result(nodes, apps, shape, SchedulerBench.label(policy), rates.size(), placed,
        sorted.get(sorted.size() - 1), sorted.get(sorted.size() / 2), rates.isEmpty() ? 0 : shareNanos / rates.size());
  }
}
