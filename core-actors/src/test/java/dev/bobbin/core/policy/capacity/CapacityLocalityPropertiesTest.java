package dev.bobbin.core.policy.capacity;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.LocalityProperties;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The capacity assignment over several passes, its missed opportunities and node reservations
 * carried from one to the next: YARN's accounting and relaxLocality hold, and reservations
 * over-commit nothing.
 */
class CapacityLocalityPropertiesTest {
  private static final CapacitySpecs SPECS = CapacitySpecs.of(CapacityCluster.config(
      "queues { a { capacity = 40, maximum-capacity = 100 }, b { capacity = 60, maximum-capacity = 100 } }"));

  @Property(tries = 500)
  void neverMoreThanAskedAtAnyLevelNoStrictRequestElsewhereNoNodeOverCommitted(
      @ForAll("clusters") LocalityProperties.Cluster c, @ForAll("delays") int nodeDelay,
      @ForAll("additionalDelays") int rackDelay, @ForAll boolean fullReset, @ForAll boolean continueLooking) {
    CapacityPlacing.Settings settings = new CapacityPlacing.Settings(nodeDelay, rackDelay, fullReset, continueLooking);
    CapacityPlacing.State[] state = {CapacityPlacing.State.EMPTY};
    Map<String, Resource> usage = new HashMap<>();
    LocalityProperties.runAndCheck(c, 8, (nodes, apps) -> {
      Resource cluster = nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
      CapacityTree tree = CapacityTree.compute(SPECS.root(), cluster, SPECS.settings());
      List<AppSnapshot> snapshots = new ArrayList<>();
      Map<String, String> users = new HashMap<>();
      Set<String> activated = new HashSet<>();
      for (AppView a : c.apps()) {
        Resource used = usage.getOrDefault(a.appId(), Resource.NONE);
        snapshots.add(new AppSnapshot(a.appId(), a.attemptId(), a.queue(), 0, a.submitTime(), used, Resource.NONE,
            Resource.NONE, Resource.NONE));
        users.put(a.appId(), "user" + a.submitTime() % 2);
        activated.add(a.appId());
      }
      CapacityAssigner.Outcome o = CapacityAssigner.assign(tree, nodes,
          new CapacityAssigner.Demand(apps, snapshots, users, activated, SPECS), settings, state[0], Integer.MAX_VALUE);
      state[0] = o.state();
      o.plan().assignments().forEach(x -> usage.merge(x.appId(), x.capability(), Resource::plus));
      return o.plan();
    });
  }

  @Provide
  Arbitrary<LocalityProperties.Cluster> clusters() {
    return LocalityProperties.clusters();
  }

  @Provide
  Arbitrary<Integer> delays() {
    return Arbitraries.of(0, 1, 2, 40);
  }

  @Provide
  Arbitrary<Integer> additionalDelays() {
    return Arbitraries.of(-1, 0, 2);
  }
}
