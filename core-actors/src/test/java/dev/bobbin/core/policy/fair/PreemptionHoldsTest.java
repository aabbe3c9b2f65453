package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.fair.SimulatedCluster.Tick;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The space preemption frees is held for the starved application on its node until it is given it
 * there, or until it no longer needs it.
 */
class PreemptionHoldsTest {
  private static final long T0 = 1_000_000;
  private static final Resource GB2 = res(2, 1);

  private final FairPolicySet policy = SimulatedCluster.policy("""
      preemption { enabled = true, cluster-utilization-threshold = 0.8, wait-before-kill = 15s }
      defaults { fair-share-preemption-timeout = 10s, fair-share-preemption-threshold = 0.8 }
      queues { tenant1 { weight = 1 }, tenant2 { weight = 2 }, tenant3 { weight = 1 } }
      """);
  private final SimulatedCluster cluster = new SimulatedCluster(15_000);
  private final List<Assignment> placed = new ArrayList<>();

  /** The deep-dive's three full 8 GB nodes; app3 in tenant3 asks for {@code app3Asks} 2 GB containers. */
  PreemptionHoldsTest() {
    cluster.node("host1", res(8, 4)).node("host3", res(8, 4)).node("host2", res(8, 4));
    cluster.app("app1", "root.tenant1", T0 - 60_000).app("app2", "root.tenant2", T0 - 50_000);
    for (int i = 0; i < 4; i++) cluster.run("app1", "host1", GB2, i == 0, T0 - 60_000 + i);
    for (int i = 0; i < 4; i++) cluster.run("app2", "host2", GB2, i == 0, T0 - 50_000 + i);
    for (int i = 0; i < 4; i++) cluster.run("app2", "host3", GB2, false, T0 - 50_000 + 4 + i);
  }

  private void run(long from, long to) {
    for (long t = from; t < to; t += 500) {
      Tick tick = cluster.tick(policy, t);
      placed.addAll(tick.placed());
    }
  }

  private List<String> placements(String appId) {
    return placed.stream().filter(a -> a.appId().equals(appId)).map(Assignment::nodeId).toList();
  }

  @Test
  void heldSpaceGoesToTheStarvedApplication() {
    cluster.app("app3", "root.tenant3", T0, Ask.anyOf(GB2, 3));
    run(T0, T0 + 13_000);
    // Another application in tenant1, whose queue is further below its share than tenant3 will be.
    cluster.app("app4", "root.tenant1", T0 + 13_000, Ask.anyOf(GB2, 2));
    run(T0 + 13_000, T0 + 26_000);
    assertThat(placements("app3")).containsExactly("host1", "host3");
    assertThat(placements("app4")).isEmpty();
  }

  @Test
  void aHoldGoesOnceItsApplicationIsAtItsFairShare() {
    // app3 asks for five containers; starved for 4915 MB, it has two preempted for it at 10 s.
    cluster.app("app3", "root.tenant3", T0, Ask.anyOf(GB2, 5));
    run(T0, T0 + 12_000);
    // A fourth node joins: shares become 8, 16 and 8 GB, and app3 gets four containers there, which is
    // its fair share. No longer starved, its holds on host1 and host3 go.
    cluster.node("host4", res(8, 4));
    run(T0 + 12_000, T0 + 13_000);
    assertThat(placements("app3")).containsExactly("host4", "host4", "host4", "host4");
    cluster.app("app4", "root.tenant1", T0 + 13_000, Ask.anyOf(GB2, 2));
    run(T0 + 13_000, T0 + 26_000);
    // At 25 s the preempted containers die. Held for app3 they would have given it its fifth container;
    // free, they go by the queues' order, and tenant1 (6 GB then 8 GB, first by name on a tie with
    // tenant3) takes both.
    assertThat(placements("app4")).containsExactlyInAnyOrder("host1", "host3");
    assertThat(placements("app3")).hasSize(4);
  }

  @Test
  void aHoldGoesWhenItsApplicationAsksForNothing() {
    cluster.app("app3", "root.tenant3", T0, Ask.anyOf(GB2, 3));
    run(T0, T0 + 12_000);
    cluster.cancelAsks("app3");
    cluster.app("app4", "root.tenant1", T0 + 12_000, Ask.anyOf(GB2, 2));
    run(T0 + 12_000, T0 + 26_000);
    assertThat(placements("app3")).isEmpty();
    assertThat(placements("app4")).containsExactlyInAnyOrder("host1", "host3");
  }
}
