package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.FairShares.QueueShare;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Share computation and assignment over random trees, applications and nodes. */
class FairShareCalculatorPropertiesTest {

  record World(QueueSpec root, Resource cluster, List<AppSnapshot> apps, List<AppView> views,
      List<NodeView> nodes, Map<String, String> reserved) {
    List<QueueSpec> queues() {
      List<QueueSpec> out = new ArrayList<>();
      collect(root, out);
      return out;
    }

    private static void collect(QueueSpec q, List<QueueSpec> out) {
      out.add(q);
      q.children().forEach(c -> collect(c, out));
    }
  }

  private static final List<Function<Resource, Long>> TYPES = List.of(Resource::memory, r -> (long) r.vCores());

  /**
   * Hadoop takes every share at the top of its search bracket and truncates it, so children may add
   * up to more than their parent, but (on amounts below 2^24 units, where the bracket's width is
   * below one unit) by no more than one unit per child, as long as their mins fit.
   */
  @Property(tries = 400)
  void childrenExceedTheirParentByAtMostOneUnitEach(@ForAll("worlds") World w) {
    FairShares s = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    for (QueueSpec parent : w.queues()) {
      if (parent.isLeaf()) continue;
      for (int t = 0; t < (parent.policy() == FairPolicyKind.DRF ? 2 : 1); t++) {
        Function<Resource, Long> type = TYPES.get(t);
        checkOvershoot(parent, s, type, QueueShare::steadyFairShare, c -> true);
        checkOvershoot(parent, s, type, QueueShare::fairShare, c -> s.queues().get(c.path()).active());
      }
    }
  }

  private static void checkOvershoot(QueueSpec parent, FairShares s, Function<Resource, Long> type,
      Function<QueueShare, Resource> kind, java.util.function.Predicate<QueueSpec> takesPart) {
    long amount = type.apply(kind.apply(s.queues().get(parent.path())));
    List<QueueSpec> takers = parent.children().stream().filter(takesPart).toList();
    long mins = takers.stream().mapToLong(c -> type.apply(c.minShare())).sum();
    if (mins > amount) return;
    long sum = parent.children().stream().mapToLong(c -> type.apply(kind.apply(s.queues().get(c.path())))).sum();
    assertThat(sum).as("children of %s", parent.path()).isLessThanOrEqualTo(amount + takers.size());
  }

  /**
   * The children use at least all of the parent's share on each resource type the parent's policy
   * splits, whenever someone with a positive weight takes part and the maxes leave room. Demand plays
   * no part, as in Hadoop.
   */
  @Property(tries = 400)
  void childrenUseTheWholeParentWhenTheirMaxesAllow(@ForAll("worlds") World w) {
    FairShares s = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    for (QueueSpec parent : w.queues()) {
      if (parent.isLeaf()) continue;
      for (int t = 0; t < (parent.policy() == FairPolicyKind.DRF ? 2 : 1); t++) {
        Function<Resource, Long> type = TYPES.get(t);
        checkWhole(parent, s, type, QueueShare::steadyFairShare, c -> true);
        checkWhole(parent, s, type, QueueShare::fairShare, c -> s.queues().get(c.path()).active());
      }
    }
  }

  private static void checkWhole(QueueSpec parent, FairShares s, Function<Resource, Long> type,
      Function<QueueShare, Resource> kind, java.util.function.Predicate<QueueSpec> takesPart) {
    long amount = type.apply(kind.apply(s.queues().get(parent.path())));
    long reach = 0;
    boolean flexible = false;
    long sum = 0;
    for (QueueSpec c : parent.children()) {
      sum += type.apply(kind.apply(s.queues().get(c.path())));
      if (!takesPart.test(c)) continue;
      long max = type.apply(QueueIndex.effectiveMax(c));
      long min = type.apply(c.minShare());
      if (max <= 0) continue;
      if (c.weight() > 0) {
        flexible = true;
        reach += max;
      } else {
        reach += min;
      }
    }
    if (flexible && reach >= amount) {
      assertThat(sum).as("children of %s", parent.path()).isGreaterThanOrEqualTo(amount);
    }
  }

  @Property(tries = 400)
  void noQueueGetsMoreThanItsMaxShare(@ForAll("worlds") World w) {
    FairShares s = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    for (QueueSpec q : w.queues()) {
      if (q == w.root()) continue;
      Resource max = QueueIndex.effectiveMax(q);
      assertThat(max.fits(s.queues().get(q.path()).steadyFairShare())).as("steady %s", q.path()).isTrue();
      assertThat(max.fits(s.queues().get(q.path()).fairShare())).as("fair %s", q.path()).isTrue();
    }
  }

  /** Every taking part child gets at least its min, even where the mins add up to more than the parent. */
  @Property(tries = 400)
  void minSharesAreAlwaysHandedOut(@ForAll("worlds") World w) {
    FairShares s = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    for (QueueSpec parent : w.queues()) {
      if (parent.isLeaf()) continue;
      for (int t = 0; t < (parent.policy() == FairPolicyKind.DRF ? 2 : 1); t++) {
        Function<Resource, Long> type = TYPES.get(t);
        checkMins(parent, s, type, QueueShare::steadyFairShare, c -> true);
        checkMins(parent, s, type, QueueShare::fairShare, c -> s.queues().get(c.path()).active());
      }
    }
  }

  private static void checkMins(QueueSpec parent, FairShares s, Function<Resource, Long> type,
      Function<QueueShare, Resource> kind, java.util.function.Predicate<QueueSpec> takesPart) {
    for (QueueSpec c : parent.children().stream().filter(takesPart).toList()) {
      assertThat(type.apply(kind.apply(s.queues().get(c.path())))).as("%s", c.path())
          .isGreaterThanOrEqualTo(type.apply(c.minShare()));
    }
  }

  /** Applications split their leaf as queues split a parent: at most one unit over per application. */
  @Property(tries = 300)
  void applicationsShareNoMoreThanTheirLeaf(@ForAll("worlds") World w) {
    FairShares s = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    Map<String, Resource> byLeaf = new HashMap<>();
    Map<String, Integer> count = new HashMap<>();
    for (AppSnapshot a : w.apps()) {
      byLeaf.merge(a.queuePath(), s.apps().get(a.appId()), Resource::plus);
      count.merge(a.queuePath(), 1, Integer::sum);
    }
    byLeaf.forEach((leaf, sum) -> {
      QueueShare q = s.queues().get(leaf);
      Resource share = q == null ? Resource.NONE : q.fairShare();
      int slack = q == null ? 0 : count.get(leaf);
      assertThat(share.plus(new Resource(slack, slack)).fits(sum)).as("apps of %s: %s", leaf, sum).isTrue();
    });
    assertThat(s.apps().keySet()).containsExactlyInAnyOrderElementsOf(w.apps().stream().map(AppSnapshot::appId).toList());
  }

  @Property(tries = 200)
  void theCalculationIsAPureFunction(@ForAll("worlds") World w) {
    List<AppSnapshot> apps = new ArrayList<>(w.apps());
    List<AppSnapshot> before = List.copyOf(apps);
    FairShares first = FairShareCalculator.compute(w.root(), w.cluster(), apps);
    assertThat(apps).isEqualTo(before);
    assertThat(FairShareCalculator.compute(w.root(), w.cluster(), apps)).isEqualTo(first);
  }

  @Property(tries = 400)
  void noNodeIsEverOverCommitted(@ForAll("worlds") World w) {
    AllocationPlan plan = assign(w);
    Map<String, Resource> used = new HashMap<>();
    w.nodes().forEach(n -> used.put(n.nodeId(), n.allocated()));
    for (Assignment a : plan.assignments()) used.merge(a.nodeId(), a.capability(), Resource::plus);
    for (NodeView n : w.nodes()) {
      boolean placedHere = plan.assignments().stream().anyMatch(a -> a.nodeId().equals(n.nodeId()));
      if (placedHere) assertThat(n.capacity().fits(used.get(n.nodeId()))).as("node %s", n.nodeId()).isTrue();
    }
  }

  @Property(tries = 400)
  void noQueueIsTakenAboveItsMaxShare(@ForAll("worlds") World w) {
    AllocationPlan plan = assign(w);
    Map<String, String> queueOf = new HashMap<>();
    w.views().forEach(v -> queueOf.put(v.appId(), v.queue()));
    QueueIndex index = QueueIndex.of(w.root());
    for (QueueSpec q : w.queues()) {
      ToLongFunction<String> under = path -> path.equals(q.path()) || path.startsWith(q.path() + ".") ? 1 : 0;
      // Applications outside the tree's leaves count against no queue.
      Resource before = w.apps().stream().filter(a -> index.isLeaf(a.queuePath()) && under.applyAsLong(a.queuePath()) == 1)
          .map(AppSnapshot::usage).reduce(Resource.NONE, Resource::plus);
      Resource placed = plan.assignments().stream().filter(a -> under.applyAsLong(queueOf.get(a.appId())) == 1)
          .map(Assignment::capability).reduce(Resource.NONE, Resource::plus);
      if (!placed.equals(Resource.NONE)) {
        assertThat(QueueIndex.effectiveMax(q).fits(before.plus(placed))).as("queue %s", q.path()).isTrue();
      }
    }
  }

  @Property(tries = 300)
  void reservedNodesServeOnlyTheirApplicationAndNobodyGetsMoreThanAsked(@ForAll("worlds") World w) {
    AllocationPlan plan = assign(w);
    for (Assignment a : plan.assignments()) {
      String reservedFor = w.reserved().get(a.nodeId());
      if (reservedFor != null) assertThat(a.appId()).isEqualTo(reservedFor);
    }
    Map<String, Integer> got = new HashMap<>();
    plan.assignments().forEach(a -> got.merge(a.appId(), 1, Integer::sum));
    for (AppView v : w.views()) {
      int asked = v.asks().stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      assertThat(got.getOrDefault(v.appId(), 0)).isLessThanOrEqualTo(asked);
    }
  }

  @Property(tries = 200)
  void theAssignerLeavesItsInputsUntouched(@ForAll("worlds") World w) {
    World copy = new World(w.root(), w.cluster(), List.copyOf(w.apps()), List.copyOf(w.views()),
        List.copyOf(w.nodes()), Map.copyOf(w.reserved()));
    AllocationPlan first = assign(w);
    assertThat(w).isEqualTo(copy);
    assertThat(assign(w)).isEqualTo(first);
  }

  @Property(tries = 300)
  void nodesTooFullForAnyAskChangeNothing(@ForAll("worlds") World w) {
    List<NodeView> withFull = new ArrayList<>();
    for (NodeView n : w.nodes()) {
      // Asks are 512 MB at least: 511 MB free holds none of them.
      withFull.add(new NodeView("full-" + n.nodeId(), "full-" + n.host(), n.rack(), n.capacity(),
          new Resource(n.capacity().memory() - 511, 0)));
      withFull.add(n);
    }
    World padded = new World(w.root(), w.cluster(), w.apps(), w.views(), withFull, w.reserved());
    assertThat(assign(padded)).isEqualTo(assign(w));
  }

  private static AllocationPlan assign(World w) {
    FairShares shares = FairShareCalculator.compute(w.root(), w.cluster(), w.apps());
    return FairAssigner.assign(w.root(), shares, w.nodes(), w.views(), w.apps(), w.reserved());
  }

  @Provide
  Arbitrary<World> worlds() {
    return Arbitraries.randomValue(FairShareCalculatorPropertiesTest::world);
  }

  private static World world(Random r) {
    List<NodeView> nodes = new ArrayList<>();
    int nodeCount = 1 + r.nextInt(5);
    Resource cluster = Resource.NONE;
    for (int i = 0; i < nodeCount; i++) {
      Resource capacity = new Resource(1024L * (1 + r.nextInt(16)), 1 + r.nextInt(8));
      Resource allocated = new Resource(Math.min(capacity.memory(), 1024L * r.nextInt(6)), r.nextInt(capacity.vCores() + 1));
      nodes.add(new NodeView("n" + i + ":1", "n" + i, "/r" + (i % 2), capacity, allocated));
      cluster = cluster.plus(capacity);
    }
    List<String> leaves = new ArrayList<>();
    QueueSpec root = queue(r, "root", 0, cluster, leaves);
    leaves.add("root.missing");

    List<AppSnapshot> apps = new ArrayList<>();
    List<AppView> views = new ArrayList<>();
    int appCount = r.nextInt(9);
    for (int i = 0; i < appCount; i++) {
      String id = "application_1_" + (1000 + i);
      String attempt = "appattempt_1_" + (1000 + i) + "_000001";
      String leaf = leaves.get(r.nextInt(leaves.size()));
      List<Ask> asks = new ArrayList<>();
      int askCount = r.nextInt(4);
      for (int k = 0; k < askCount; k++) {
        boolean am = r.nextInt(4) == 0;
        Resource size = new Resource(512L * (1 + r.nextInt(8)), 1 + r.nextInt(3));
        asks.add(new Ask(am ? 0 : 1 + r.nextInt(3), Ask.ANY, size, r.nextInt(6), true, k, am));
      }
      Resource usage = new Resource(1024L * r.nextInt(6), r.nextInt(6));
      Resource amUsage = usage.memory() > 0 && r.nextBoolean() ? new Resource(Math.min(1024, usage.memory()), Math.min(1, usage.vCores())) : Resource.NONE;
      int priority = r.nextInt(3);
      long submit = r.nextInt(20);
      apps.add(new AppSnapshot(id, attempt, leaf, priority, submit, usage, amUsage, FairAssigner.pending(asks), Resource.NONE));
      views.add(new AppView(id, attempt, leaf, priority, submit, asks));
    }
    Map<String, String> reserved = new HashMap<>();
    if (!apps.isEmpty() && r.nextInt(3) == 0) {
      reserved.put(nodes.get(r.nextInt(nodes.size())).nodeId(), apps.get(r.nextInt(apps.size())).appId());
    }
    return new World(root, cluster, apps, views, nodes, reserved);
  }

  private static QueueSpec queue(Random r, String path, int depth, Resource cluster, List<String> leaves) {
    int childCount = depth == 0 ? 1 + r.nextInt(4) : depth < 3 && r.nextInt(3) == 0 ? 1 + r.nextInt(3) : 0;
    List<QueueSpec> children = new ArrayList<>();
    for (int i = 0; i < childCount; i++) children.add(queue(r, path + ".q" + i, depth + 1, cluster, leaves));
    if (childCount == 0) leaves.add(path);
    double weight = new double[] {0, 0.5, 1, 1, 2, 3}[r.nextInt(6)];
    Resource min = r.nextInt(10) < 3
        ? new Resource(512L * r.nextInt((int) (cluster.memory() / 1024) + 1), r.nextInt(cluster.vCores() / 2 + 1))
        : Resource.NONE;
    Resource max = r.nextInt(10) < 3
        ? new Resource(512L * (1 + r.nextInt((int) (cluster.memory() / 512))), 1 + r.nextInt(cluster.vCores()))
        : cluster;
    FairPolicyKind[] kinds = childCount == 0 ? FairPolicyKind.values() : new FairPolicyKind[] {FairPolicyKind.FAIR, FairPolicyKind.DRF};
    FairPolicyKind policy = kinds[r.nextInt(kinds.length)];
    int maxRunning = r.nextInt(5) == 0 ? r.nextInt(3) : Integer.MAX_VALUE;
    float maxAm = r.nextInt(3) == 0 ? 0.1f * (1 + r.nextInt(10)) : -1f;
    return new QueueSpec(path, weight, min, max, policy, maxRunning, maxAm, true, null, 0.5, null, children);
  }
}
