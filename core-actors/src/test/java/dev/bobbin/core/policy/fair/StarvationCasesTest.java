package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.mb;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.StarvationClocks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which applications the Fair policy set finds starved, and when it looks at all. */
class StarvationCasesTest {
  private static final long T0 = 1_000_000;

  /**
   * Hadoop's own starvation cases: two 4 GB / 4 vcore nodes filled by eight 1 GB containers of an
   * application in root.default, then one application asking for one 1 GB container in each of
   * root.no-preemption (threshold 0), root.minshare (threshold 0, a 2 GB / 2 vcore min share, min-share
   * timeout 0), root.fairshare.child (FAIR, threshold 1, timeout 0) and root.drf.child (DRF, threshold 1,
   * timeout 0); DRF by default. root.default may not be preempted from, so nothing is, and the starved
   * applications stay starved.
   */
  private static String queues(boolean enabled, double threshold) {
    return "preemption { enabled = " + enabled + ", cluster-utilization-threshold = " + threshold
        + ", wait-before-kill = 15s }\n"
        + "defaults { scheduling-policy = drf }\n"
        + "queues {\n"
        + "  default { allow-preemption-from = false }\n"
        + "  no-preemption { fair-share-preemption-threshold = 0 }\n"
        + "  minshare { fair-share-preemption-threshold = 0, min-share-preemption-timeout = 0s,"
        + " min-resources = \"2048 mb, 2 vcores\" }\n"
        + "  fairshare { fair-share-preemption-threshold = 1, fair-share-preemption-timeout = 0s,"
        + " scheduling-policy = fair, queues { child { scheduling-policy = fair } } }\n"
        + "  drf { fair-share-preemption-threshold = 1, fair-share-preemption-timeout = 0s,"
        + " scheduling-policy = drf, queues { child { scheduling-policy = drf } } }\n"
        + "}";
  }

  private static final List<String> QUEUES =
      List.of("root.no-preemption", "root.minshare", "root.fairshare.child", "root.drf.child");

  private final SimulatedCluster cluster = new SimulatedCluster(15_000);

  private FairPolicySet starvedCluster(boolean enabled, double threshold) {
    FairPolicySet policy = SimulatedCluster.policy(queues(enabled, threshold));
    cluster.node("host1", res(4, 4)).node("host2", res(4, 4)).app("greedy", "root.default", T0 - 10_000);
    for (int i = 0; i < 8; i++) cluster.run("greedy", i < 4 ? "host1" : "host2", mb(1024, 1), false, T0 - 10_000 + i);
    cluster.tick(policy, T0);
    for (String q : QUEUES) cluster.app(q.substring(5), q, T0, Ask.anyOf(mb(1024, 1), 1));
    return policy;
  }

  @Test
  void noApplicationIsFoundStarvedWithPreemptionOff() {
    FairPolicySet policy = starvedCluster(false, 0);
    StarvationClocks clocks = cluster.tick(policy, T0 + 10).update().clocks();
    assertThat(clocks).isEqualTo(StarvationClocks.EMPTY);
  }

  @Test
  void theThreeStarvedApplicationsAreFoundAndLookedAtAgainOnlyAfterTheDelay() {
    FairPolicySet policy = starvedCluster(true, 0);
    StarvationClocks first = cluster.tick(policy, T0 + 10).update().clocks();
    // minshare for its min share, fairshare.child and drf.child for their fair shares; no-preemption,
    // with a threshold of 0, never starves. Each is left alone for 15 s + 10 s.
    assertThat(first.appsRecheckAfter()).isEqualTo(Map.of(
        "minshare", T0 + 25_010, "fairshare.child", T0 + 25_010, "drf.child", T0 + 25_010));

    // A second later none of them is found starved again.
    assertThat(cluster.tick(policy, T0 + 1_010).update().clocks().appsRecheckAfter())
        .isEqualTo(first.appsRecheckAfter());

    // Once the delay has passed each is found starved once more.
    assertThat(cluster.tick(policy, T0 + 25_010).update().clocks().appsRecheckAfter()).isEqualTo(Map.of(
        "minshare", T0 + 50_010, "fairshare.child", T0 + 50_010, "drf.child", T0 + 50_010));
  }

  @Test
  void nothingIsFoundStarvedWhileUtilizationIsNotAboveTheThreshold() {
    // The cluster is full, and 1.0 is not above 1.0.
    FairPolicySet policy = starvedCluster(true, 1.0);
    for (long t = T0 + 10; t < T0 + 60_000; t += 500) {
      assertThat(cluster.tick(policy, t).update().clocks().appsRecheckAfter()).isEmpty();
    }
  }

  @Test
  void clocksStandStillWhileTheClusterIsNotBusyEnough() {
    // Three 8 GB nodes; tenant1 and tenant3 weigh 1, so app3's share is 12 GB and it is below its
    // threshold under 0.8 x 12 GB = 9830 MB. app3 also asks for a 10 GB container no node can hold.
    FairPolicySet policy = SimulatedCluster.policy("""
        preemption { enabled = true, cluster-utilization-threshold = 0.8, wait-before-kill = 15s }
        defaults { fair-share-preemption-timeout = 10s, fair-share-preemption-threshold = 0.8 }
        queues { tenant1 {}, tenant3 {} }
        """);
    cluster.node("n1", res(8, 4)).node("n2", res(8, 4)).node("n3", res(8, 4));
    cluster.app("app1", "root.tenant1", T0).app("app3", "root.tenant3", T0, Ask.anyOf(res(10, 1), 1));
    List<String> app1 = new ArrayList<>();
    List<String> app3 = new ArrayList<>();
    for (int i = 0; i < 6; i++) app1.add(cluster.run("app1", "n" + (1 + i % 3), res(2, 0), false, T0));
    for (int i = 0; i < 2; i++) app3.add(cluster.run("app3", "n" + (1 + i % 3), res(2, 0), false, T0));
    // 16 of 24 GB used: below the threshold, nothing is checked and no clock is left behind.
    StarvationClocks clocks = null;
    for (long t = T0; t < T0 + 20_000; t += 500) clocks = cluster.tick(policy, t).update().clocks();
    assertThat(clocks).isEqualTo(StarvationClocks.EMPTY);

    // From 20 s to 40 s app3 holds 10 GB, at its threshold, with app1 down to 8 GB: still 18 of 24 GB,
    // still not checked, so its clock does not move to 20 s as it would in a check.
    cluster.stop(app1.remove(0));
    cluster.stop(app1.remove(0));
    for (int i = 0; i < 3; i++) app3.add(cluster.run("app3", "n" + (1 + i % 3), res(2, 0), false, T0 + 20_000));
    for (long t = T0 + 20_000; t < T0 + 40_000; t += 500) clocks = cluster.tick(policy, t).update().clocks();
    assertThat(clocks).isEqualTo(StarvationClocks.EMPTY);

    // At 40 s app3 drops back to 4 GB. At 45 s app1 grows to 16 GB: 20 of 24 GB is above 0.8. app3 has
    // been below for only 5 s, but no check saw it at its threshold since it started: starved at once.
    for (int i = 0; i < 3; i++) cluster.stop(app3.remove(app3.size() - 1));
    for (long t = T0 + 40_000; t < T0 + 45_000; t += 500) clocks = cluster.tick(policy, t).update().clocks();
    assertThat(clocks).isEqualTo(StarvationClocks.EMPTY);
    for (int i = 0; i < 4; i++) cluster.run("app1", "n" + (1 + i % 3), res(2, 0), false, T0 + 45_000);
    clocks = cluster.tick(policy, T0 + 45_000).update().clocks();
    assertThat(clocks.appRecheckAfter("app3")).hasValue(T0 + 70_000);
    assertThat(clocks.appBelowSince("app3")).hasValue(T0);
  }
}
