package dev.bobbin.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random clusters and requests for the locality properties of every policy, and a run of passes
 * carried out as the scheduler carries them out, with the checks: no node over-committed, never
 * more containers than asked at any level, a strict request never placed elsewhere.
 */
public final class LocalityProperties {
  private LocalityProperties() {}

  /** Nodes in up to three racks, and applications, in queues {@code a} and {@code b}, asking at every level. */
  public record Cluster(List<NodeView> nodes, List<AppView> apps) {}

  /** One pass of a policy over the cluster as it stands. */
  public interface Policy {
    AllocationPlan pass(List<NodeView> nodes, List<AppView> apps);
  }

  public static Arbitrary<Cluster> clusters() {
    Arbitrary<NodeView> node = Combinators.combine(
            Arbitraries.integers().between(2, 8), Arbitraries.integers().between(0, 8),
            Arbitraries.integers().between(0, 2))
        .as((gb, usedGb, rack) -> new NodeView("n", "h", "/r" + rack, Resource.of(gb * 1024L, 8),
            Resource.of(Math.min(gb, usedGb) * 1024L, 0)));
    return node.list().ofMinSize(1).ofMaxSize(6).flatMap(ns -> {
      List<NodeView> nodes = new ArrayList<>();
      for (int i = 0; i < ns.size(); i++) {
        NodeView n = ns.get(i);
        nodes.add(new NodeView("h" + i + ":1", "h" + i, n.rack(), n.capacity(), n.allocated()));
      }
      Arbitrary<List<Ask>> request = request(nodes);
      return request.list().ofMaxSize(3).map(rs -> rs.stream().flatMap(List::stream).toList()).list().ofMaxSize(5)
          .map(perApp -> {
            List<AppView> apps = new ArrayList<>();
            for (int i = 0; i < perApp.size(); i++) {
              apps.add(new AppView("application_1_" + (1000 + i), "appattempt_1_" + (1000 + i) + "_000001",
                  i % 2 == 0 ? "root.a" : "root.b", 0, i, distinctKeys(perApp.get(i))));
            }
            return new Cluster(nodes, apps);
          });
    });
  }

  /** One request: {@code *} and some of the hosts and racks, each with its own count and flag. */
  private static Arbitrary<List<Ask>> request(List<NodeView> nodes) {
    List<String> names = new ArrayList<>();
    for (NodeView n : nodes) {
      names.add(n.host());
      if (!names.contains(n.rack())) names.add(n.rack());
    }
    Arbitrary<Ask> named = Combinators.combine(Arbitraries.of(names), Arbitraries.integers().between(1, 4),
            Arbitraries.of(true, false))
        .as((name, count, relax) -> new Ask(0, name, Resource.NONE, count, relax, -1, false));
    return Combinators.combine(Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 4),
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 6), Arbitraries.of(true, false),
            named.list().ofMaxSize(4))
        .as((priority, gb, id, anyCount, anyRelax, places) -> {
          Resource size = Resource.of(gb * 1024L, 1);
          List<Ask> asks = new ArrayList<>();
          if (anyCount > 0) asks.add(new Ask(priority, Ask.ANY, size, anyCount, anyRelax, id, false));
          for (Ask p : places) {
            asks.add(new Ask(priority, p.resourceName(), size, p.count(), p.relaxLocality(), id, false));
          }
          return asks;
        });
  }

  /** One ask per key and name, as an AM's totals are. */
  private static List<Ask> distinctKeys(List<Ask> asks) {
    Map<List<Object>, Ask> byName = new LinkedHashMap<>();
    for (Ask a : asks) byName.putIfAbsent(List.of(RequestKey.of(a), a.resourceName()), a);
    return List.copyOf(byName.values());
  }

  /**
   * Runs {@code passes} passes, placing what each plans as the scheduler does (the node's
   * allocation and the application's asks change), and checks every placement against the asks
   * as they stood when it was made ({@link #checkPlacement}) and every node at the end.
   *
   * @return every placement, in order
   */
  public static List<Assignment> runAndCheck(Cluster c, int passes, Policy policy) {
    Map<String, NodeView> nodes = new LinkedHashMap<>();
    c.nodes().forEach(n -> nodes.put(n.nodeId(), n));
    Map<String, AppView> apps = new LinkedHashMap<>();
    c.apps().forEach(a -> apps.put(a.appId(), a));
    List<Assignment> all = new ArrayList<>();
    for (int i = 0; i < passes; i++) {
      List<AppView> waiting = apps.values().stream().filter(a -> !a.asks().isEmpty()).toList();
      for (Assignment a : policy.pass(List.copyOf(nodes.values()), waiting).assignments()) {
        NodeView node = nodes.get(a.nodeId());
        assertThat(node.free().fits(a.capability())).as("room on %s for %s", node, a).isTrue();
        AppView app = apps.get(a.appId());
        checkPlacement(a, node, app.asks());
        nodes.put(node.nodeId(), node.allocate(a.capability()));
        List<Ask> left = Asks.afterPlacement(app.asks(), a.ask(), node.host(), node.nodeId(), node.rack());
        apps.put(app.appId(), new AppView(app.appId(), app.attemptId(), app.queue(), app.priority(), app.submitTime(),
            left));
        all.add(a);
      }
    }
    for (NodeView n : nodes.values()) {
      assertThat(n.capacity().fits(n.allocated())).as("node %s over-committed", n.nodeId()).isTrue();
    }
    for (AppView app : c.apps()) {
      Map<RequestKey, Integer> wanted = new HashMap<>();
      app.asks().stream().filter(Ask::isAny).forEach(a -> wanted.put(RequestKey.of(a), a.count()));
      Map<RequestKey, Integer> got = new HashMap<>();
      all.stream().filter(a -> a.appId().equals(app.appId())).forEach(a -> got.merge(RequestKey.of(a.ask()), 1,
          Integer::sum));
      got.forEach((k, n) -> assertThat(n).as("containers of %s", k).isLessThanOrEqualTo(wanted.getOrDefault(k, 0)));
    }
    return all;
  }

  /**
   * One placement against its application's asks as they stood: every level it is charged to
   * still wanted a container (never more than asked at any level: {@code *} always; the host and
   * the rack, if asked, for a node-local one; the rack for a rack-local one); a rack-local one only
   * where the rack may be relaxed to, an off-switch one only where {@code *} may; and nothing but
   * node-local in a rack asked for strictly, nothing off-switch for a strict {@code *}.
   */
  private static void checkPlacement(Assignment a, NodeView node, List<Ask> asks) {
    Map<String, Ask> names = new HashMap<>();
    for (Ask ask : asks) if (RequestKey.of(ask).equals(RequestKey.of(a.ask()))) names.put(ask.resourceName(), ask);
    String name = a.ask().resourceName();
    Ask any = names.get(Ask.ANY);
    Ask rack = names.get(node.rack());
    assertThat(any).as("%s placed with nothing left at *", a).isNotNull();
    assertThat(names).as("%s charged to an ask that is not there", a).containsKey(name);
    boolean nodeLocal = name.equals(node.host()) || name.equals(node.nodeId());
    if (!nodeLocal && name.equals(node.rack())) {
      assertThat(rack.relaxLocality()).as("%s rack-local in a strict rack", a).isTrue();
    } else if (!nodeLocal) {
      assertThat(a.ask().isAny()).as("%s charged to another place", a).isTrue();
      assertThat(any.relaxLocality()).as("%s off-switch with a strict *", a).isTrue();
      assertThat(rack == null || rack.relaxLocality()).as("%s off-switch in a strict rack", a).isTrue();
    }
  }
}
