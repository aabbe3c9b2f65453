package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class FifoPolicyPropertiesTest {
  private final FifoPolicy policy = new FifoPolicy();

  record Cluster(List<NodeView> nodes, List<AppView> apps) {}

  @Property(tries = 300)
  void noNodeIsEverOverCommitted(@ForAll("clusters") Cluster c) {
    AllocationPlan plan = policy.assign(List.of("a", "b"), c.nodes(), c.apps());
    Map<String, Resource> used = new HashMap<>();
    c.nodes().forEach(n -> used.put(n.nodeId(), n.allocated()));
    for (Assignment a : plan.assignments()) used.merge(a.nodeId(), a.capability(), Resource::plus);
    for (NodeView n : c.nodes()) {
      assertThat(n.capacity().fits(used.get(n.nodeId()))).as("node %s used %s", n.nodeId(), used.get(n.nodeId())).isTrue();
    }
  }

  @Property(tries = 300)
  void noApplicationGetsMoreThanItAskedFor(@ForAll("clusters") Cluster c) {
    AllocationPlan plan = policy.assign(List.of("a", "b"), c.nodes(), c.apps());
    Map<String, Integer> got = new HashMap<>();
    plan.assignments().forEach(a -> got.merge(a.appId(), 1, Integer::sum));
    for (AppView app : c.apps()) {
      int asked = app.asks().stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      assertThat(got.getOrDefault(app.appId(), 0)).isLessThanOrEqualTo(asked);
    }
  }

  @Property(tries = 200)
  void theInputsAreLeftUntouched(@ForAll("clusters") Cluster c) {
    List<NodeView> nodes = List.copyOf(c.nodes());
    List<AppView> apps = List.copyOf(c.apps());
    policy.assign(List.of("a", "b"), c.nodes(), c.apps());
    assertThat(c.nodes()).isEqualTo(nodes);
    assertThat(c.apps()).isEqualTo(apps);
  }

  @Property(tries = 300)
  void aLimitedPlanIsTheStartOfThePlanWithoutALimit(@ForAll("clusters") Cluster c,
      @ForAll @IntRange(min = 0, max = 40) int limit) {
    List<Assignment> whole = policy.assign(List.of("a", "b"), c.nodes(), c.apps()).assignments();
    List<Assignment> limited = policy.assign(List.of("a", "b"), c.nodes(), c.apps(),
        Resource.of(Long.MAX_VALUE, Integer.MAX_VALUE), limit).assignments();
    assertThat(limited).isEqualTo(whole.subList(0, Math.min(limit, whole.size())));
  }

  @Property(tries = 300)
  void nodesTooFullForAnyAskChangeNothing(@ForAll("clusters") Cluster c) {
    List<NodeView> withFull = new ArrayList<>();
    for (NodeView n : c.nodes()) {
      withFull.add(new NodeView("full-" + n.nodeId(), "full-" + n.host(), "/r", n.capacity(),
          new Resource(n.capacity().memory() - 512, 0)));
      withFull.add(n);
    }
    assertThat(policy.assign(List.of("a", "b"), withFull, c.apps()))
        .isEqualTo(policy.assign(List.of("a", "b"), c.nodes(), c.apps()));
  }

  @Provide
  Arbitrary<Cluster> clusters() {
    Arbitrary<NodeView> node = Combinators.combine(
            Arbitraries.integers().between(1, 16), Arbitraries.integers().between(1, 8),
            Arbitraries.integers().between(0, 4))
        .as((gb, cores, usedGb) -> {
          long mem = gb * 1024L;
          long used = Math.min(mem, usedGb * 1024L);
          return new NodeView("n", "h", "/r", new Resource(mem, cores), new Resource(used, 0));
        });
    Arbitrary<Ask> ask = Combinators.combine(
            Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(0, 10), Arbitraries.of(true, false))
        .as((prio, gb, count, am) -> new Ask(prio, Ask.ANY, new Resource(gb * 1024L, 1), count, true, -1, am));
    Arbitrary<List<Ask>> asks = ask.list().ofMaxSize(3);
    return Combinators.combine(node.list().ofMinSize(1).ofMaxSize(6), asks.list().ofMaxSize(6))
        .as((ns, as) -> {
          List<NodeView> nodes = new ArrayList<>();
          for (int i = 0; i < ns.size(); i++) {
            NodeView n = ns.get(i);
            nodes.add(new NodeView("n" + i + ":1", "n" + i, "/r", n.capacity(), n.allocated()));
          }
          List<AppView> apps = new ArrayList<>();
          for (int i = 0; i < as.size(); i++) {
            apps.add(new AppView("application_1_" + (1000 + i), "appattempt_1_" + (1000 + i) + "_000001",
                i % 2 == 0 ? "a" : "b", 0, i, as.get(i)));
          }
          return new Cluster(nodes, apps);
        });
  }
}
