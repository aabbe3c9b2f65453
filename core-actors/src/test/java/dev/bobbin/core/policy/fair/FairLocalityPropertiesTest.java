package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.FairTestQueues.leaf;
import static dev.bobbin.core.policy.fair.FairTestQueues.queue;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.LocalityProperties;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The Fair assignment over several passes, its delays and reservations carried from one to the
 * next: YARN's accounting and relaxLocality hold, and reservations over-commit nothing.
 */
class FairLocalityPropertiesTest {
  private static final QueueSpec ROOT = queue("root").children(leaf("root.a", 1), leaf("root.b", 2)).build();

  @Property(tries = 500)
  void neverMoreThanAskedAtAnyLevelNoStrictRequestElsewhereNoNodeOverCommitted(
      @ForAll("clusters") LocalityProperties.Cluster c, @ForAll("thresholds") double node,
      @ForAll("thresholds") double rack) {
    FairPlacing.Settings settings = FairPlacing.Settings.of(node, rack, Resource.of(1024, 1));
    FairPlacing.State[] state = {FairPlacing.State.EMPTY};
    LocalityProperties.runAndCheck(c, 6, (nodes, apps) -> {
      Resource cluster = nodes.stream().map(NodeView::capacity).reduce(Resource.NONE, Resource::plus);
      List<AppSnapshot> snapshots = new ArrayList<>();
      for (AppView a : apps) {
        snapshots.add(new AppSnapshot(a.appId(), a.attemptId(), a.queue(), 0, a.submitTime(), Resource.NONE,
            Resource.NONE, FairAssigner.pending(a.asks()), Resource.NONE));
      }
      FairShares shares = FairShareCalculator.compute(ROOT, cluster, snapshots);
      FairAssigner.Outcome o = FairAssigner.assign(ROOT, shares, nodes, apps, snapshots, Map.of(), Set.of(), settings,
          state[0], Integer.MAX_VALUE);
      state[0] = o.state();
      return o.plan();
    });
  }

  @Provide
  Arbitrary<LocalityProperties.Cluster> clusters() {
    return LocalityProperties.clusters();
  }

  @Provide
  Arbitrary<Double> thresholds() {
    return Arbitraries.of(-1.0, 0.0, 0.3, 0.5, 1.0);
  }
}
