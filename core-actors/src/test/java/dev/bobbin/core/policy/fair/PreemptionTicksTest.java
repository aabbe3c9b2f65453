package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.StarvationClocks;
import dev.bobbin.core.policy.fair.SimulatedCluster.Tick;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Fair policy set driven tick by tick, every 500 ms as its update interval, through the deep-dive's
 * example: three 8 GB / 4 vcore nodes, tenants weighing 1, 2 and 1, fair-share timeout 10 s,
 * threshold 0.8, preemption above 80 % utilization, 15 s before a kill.
 *
 * <p>The numbers are Hadoop 3.4.2's: its FairScheduler was driven through the same state (a
 * controlled clock, an update every 500 ms, node heartbeats after each) and decided at the same
 * times, with the same amounts, on the same nodes.
 */
class PreemptionTicksTest {
  private static final long T0 = 1_000_000;
  private static final Resource GB2 = res(2, 1);
  private static final String QUEUES = """
      preemption { enabled = true, cluster-utilization-threshold = 0.8, wait-before-kill = 15s }
      defaults { fair-share-preemption-timeout = 10s, fair-share-preemption-threshold = 0.8 }
      queues { tenant1 { weight = 1 }, tenant2 { weight = 2 }, tenant3 { weight = 1 } }
      """;

  private final FairPolicySet policy = SimulatedCluster.policy(QUEUES);
  private final SimulatedCluster cluster = new SimulatedCluster(15_000);

  /**
   * tenant1's app1 holds an AM and three tasks on host1; tenant2's app2 an AM and three tasks on
   * host2 and four tasks on host3. The nodes registered as host1, host3, host2: the order Hadoop's
   * node tracker happened to walk them in, so both walk the same nodes. app3 arrives in tenant3 at
   * T0 asking for three 2 GB containers; instantaneous shares become 6, 12 and 6 GB.
   */
  PreemptionTicksTest() {
    cluster.node("host1", res(8, 4)).node("host3", res(8, 4)).node("host2", res(8, 4));
    cluster.app("app1", "root.tenant1", T0 - 60_000).app("app2", "root.tenant2", T0 - 50_000);
    cluster.run("app1", "host1", GB2, true, T0 - 60_000);
    for (int i = 1; i <= 3; i++) cluster.run("app1", "host1", GB2, false, T0 - 60_000 + i);
    cluster.run("app2", "host2", GB2, true, T0 - 50_000);
    for (int i = 1; i <= 3; i++) cluster.run("app2", "host2", GB2, false, T0 - 50_000 + i);
    for (int i = 4; i <= 7; i++) cluster.run("app2", "host3", GB2, false, T0 - 50_000 + i);
    cluster.app("app3", "root.tenant3", T0, Ask.anyOf(GB2, 3));
  }

  private Map<Long, Tick> run(long untilSeconds) {
    Map<Long, Tick> ticks = new LinkedHashMap<>();
    for (long t = T0; t <= T0 + untilSeconds * 1000; t += 500) ticks.put(t - T0, cluster.tick(policy, t));
    return ticks;
  }

  @Test
  void twoContainersAtTenSecondsThenNothingMoreForLessThanAContainer() {
    Map<Long, Tick> ticks = run(75);

    // app3 is below min(0.8 x 6144, 6144) = 4915 MB from its start; after 10 s it is starved for all of
    // it, which pays for floor(4915 / 2048) = 2 containers. One comes from app1 on host1 (8 -> 6 GB, its
    // fair share) and, app1 having nothing more to give, one from app2 on host3, the next node walked.
    List<Long> preemptedAt = ticks.entrySet().stream().filter(e -> !e.getValue().preempted().isEmpty())
        .map(Map.Entry::getKey).toList();
    assertThat(preemptedAt).containsExactly(10_000L);
    Tick decided = ticks.get(10_000L);
    assertThat(decided.update().preemptions()).extracting(p -> p.nodeId() + " " + p.victims().get(0).appId())
        .containsExactly("host1 app1", "host3 app2");
    // Within a node Hadoop's order is a hash map's: it took app2's first task on host3 where Bobbin takes
    // the newest. Both take app1's newest task on host1.
    assertThat(decided.preempted()).containsExactly("app1-4", "app2-12");
    assertThat(decided.update().preemptions()).allSatisfy(p -> {
      assertThat(p.starvedAppId()).isEqualTo("app3");
      assertThat(p.kind()).isEqualTo("FAIR_SHARE");
    });

    // Killed 15 s later; the space held for app3 goes to it at once.
    assertThat(ticks.get(25_000L).killed()).containsExactly("app1-4", "app2-12");
    assertThat(ticks.get(25_000L).placed()).extracting(a -> a.appId() + "@" + a.nodeId())
        .containsExactly("app3@host1", "app3@host3");
    assertThat(cluster.usage("app3")).isEqualTo(res(4, 2));

    // After the decision app3 is not looked at for 15 s + 10 s. At 35 s it is starved again for
    // 4915 - 4096 = 819 MB: less than one 2 GB container, so nothing is preempted, and it is left
    // alone for another 25 s, and so on.
    List<Long> recheckTimes = new ArrayList<>();
    for (Tick t : ticks.values()) {
      t.update().clocks().appRecheckAfter("app3").ifPresent(at -> {
        if (recheckTimes.isEmpty() || recheckTimes.get(recheckTimes.size() - 1) != at - T0) recheckTimes.add(at - T0);
      });
    }
    assertThat(recheckTimes).containsExactly(35_000L, 60_000L, 85_000L);
    assertThat(ticks.get(34_500L).update().clocks().appRecheckAfter("app3")).hasValue(T0 + 35_000);
    // Its clock never moved: it has been below its threshold since it started.
    assertThat(ticks.get(75_000L).update().clocks().appBelowSince("app3")).hasValue(T0);
    assertThat(cluster.containersOf("app1")).hasSize(3);
    assertThat(cluster.containersOf("app2")).hasSize(7);
  }

  @Test
  void theRecheckDelaySurvivesAMoveOfTheScheduler() {
    StarvationClocks journalled = null;
    for (long t = T0; t <= T0 + 10_000; t += 500) journalled = cluster.tick(policy, t).update().clocks();
    assertThat(journalled.appRecheckAfter("app3")).hasValue(T0 + 35_000);

    // Another member takes over with what was journalled; app3 is not found starved again before 35 s.
    FairPolicySet successor = SimulatedCluster.policy(QUEUES);
    successor.restoreClocks(journalled);
    List<Long> preemptedAt = new ArrayList<>();
    StarvationClocks last = journalled;
    for (long t = T0 + 10_500; t <= T0 + 40_000; t += 500) {
      Tick tick = cluster.tick(successor, t);
      if (!tick.preempted().isEmpty()) preemptedAt.add(t - T0);
      last = tick.update().clocks();
      if (t < T0 + 35_000) assertThat(last.appRecheckAfter("app3")).hasValue(T0 + 35_000);
    }
    assertThat(preemptedAt).isEmpty();
    // Checked at 35 s: 819 MB short, no container's worth; next check 25 s later.
    assertThat(last.appRecheckAfter("app3")).hasValue(T0 + 60_000);
    assertThat(last.appBelowSince("app3")).hasValue(T0);
  }
}
