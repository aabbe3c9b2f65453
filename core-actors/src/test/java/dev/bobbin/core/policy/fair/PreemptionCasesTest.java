package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.PreemptionFixtures.mb;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Hadoop's own preemption cases, in the four configurations Hadoop runs them in (min-share or
 * fair-share starvation, fair or DRF policy), with Hadoop's expected numbers. Two 4 GB / 12 vcore
 * nodes; a greedy application fills them with eight 1 GB / 1 vcore containers (host1 first, then
 * host2); a second application then asks for four 2 GB / 2 vcore containers. No wait before a kill, no
 * utilization threshold; one update a second later decides, the kills follow at once, and the freed
 * space is assigned.
 *
 * <p>Queues: root.preemptable (children child-1 and child-2), root.preemptable-sibling, and
 * root.nonpreemptable (children child-1 and child-2), which may not be preempted from. For min-share
 * starvation the children have a 4 GB / 4 vcore min share and a min-share timeout of 0; for fair-share
 * starvation a threshold of 1 and a timeout of 0.
 */
class PreemptionCasesTest {
  private static final Resource GB = mb(1024, 1);
  private static final long T0 = 1_000_000;

  enum Mode {
    MIN_SHARE(false, false), MIN_SHARE_DRF(false, true), FAIR_SHARE(true, false), FAIR_SHARE_DRF(true, true);

    final boolean fairShare;
    final boolean drf;

    Mode(boolean fairShare, boolean drf) {
      this.fairShare = fairShare;
      this.drf = drf;
    }

    String queues() {
      String starve = fairShare
          ? "fair-share-preemption-threshold = 1, fair-share-preemption-timeout = 0s"
          : "min-share-preemption-timeout = 0s";
      String child = fairShare ? "{}" : "{ min-resources = \"4096 mb, 4 vcores\" }";
      return "preemption { enabled = true, cluster-utilization-threshold = 0, wait-before-kill = 0s }\n"
          + (drf ? "defaults { scheduling-policy = drf }\n" : "")
          + "queues {\n"
          + "  preemptable { " + starve + ", queues { child-1 " + child + ", child-2 " + child + " } }\n"
          + "  preemptable-sibling { " + starve + " }\n"
          + "  nonpreemptable { allow-preemption-from = false, " + starve
          + ", queues { child-1 " + child + ", child-2 " + child + " } }\n"
          + "}";
    }
  }

  private FairPolicySet policy;
  private SimulatedCluster cluster;
  private long now = T0;

  private void greedyIn(Mode mode, String queue) {
    greedyIn(mode, queue, 0, 0);
  }

  /** The greedy application's first {@code amsOnHost1} and {@code amsOnHost2} containers on each node are AMs. */
  private void greedyIn(Mode mode, String queue, int amsOnHost1, int amsOnHost2) {
    policy = SimulatedCluster.policy(mode.queues());
    cluster = new SimulatedCluster(0).node("host1", mb(4096, 12)).node("host2", mb(4096, 12));
    cluster.app("greedy", queue, T0 - 10_000);
    for (int i = 0; i < 8; i++) {
      boolean am = i < 4 ? i < amsOnHost1 : i - 4 < amsOnHost2;
      cluster.run("greedy", i < 4 ? "host1" : "host2", GB, am, T0 - 10_000 + i);
    }
    cluster.tick(policy, now);
  }

  /** The starving application arrives; a second later the update decides and the freed space is assigned. */
  private void starving(String id, String queue, Ask... asks) {
    cluster.app(id, queue, now, asks);
    now += 1_000;
    cluster.tick(policy, now);
  }

  private void halfTheCluster(String id, String queue) {
    starving(id, queue, Ask.anyOf(mb(2048, 2), 4));
  }

  /**
   * {@code count} containers of {@code size} on host1, with locality relaxed, beside rack and {@code *}
   * requests for one 10 GB container: too big for the starvation to pay for, so only the host request
   * counts.
   */
  private static Ask[] onHost1(Resource size, int count) {
    return new Ask[] {new Ask(1, "host1", size, count, true, -1, false),
        new Ask(1, "/rack", mb(10_240, 1), 1, true, -1, false), new Ask(1, Ask.ANY, mb(10_240, 1), 1, true, -1, false)};
  }

  private void verify(String starved, int starvedContainers, int greedyContainers) {
    assertThat(cluster.containersOf("greedy")).as("greedy's containers").hasSize(greedyContainers);
    assertThat(cluster.containersOf(starved)).as(starved + "'s containers").hasSize(starvedContainers);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void preemptionWithinOneLeafQueueIsForFairShareOnly(Mode mode) {
    greedyIn(mode, "root.preemptable.child-1");
    halfTheCluster("starving", "root.preemptable.child-1");
    if (mode.fairShare) {
      verify("starving", 2, 4);
    } else {
      // The queue holds all 8 GB, well over its min share.
      verify("starving", 0, 8);
    }
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void preemptionBetweenSiblingLeafQueues(Mode mode) {
    greedyIn(mode, "root.preemptable.child-1");
    halfTheCluster("starving", "root.preemptable.child-2");
    verify("starving", 2, 4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void preemptionBetweenQueuesUnderDifferentParents(Mode mode) {
    greedyIn(mode, "root.preemptable.child-1");
    halfTheCluster("starving", "root.nonpreemptable.child-1");
    verify("starving", 2, 4);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void nothingIsTakenFromAQueueThatDisallowsIt(Mode mode) {
    greedyIn(mode, "root.nonpreemptable.child-1");
    halfTheCluster("starving", "root.preemptable.child-1");
    verify("starving", 0, 8);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void nonAmContainersAreTakenOnBothNodesBeforeAnyAm(Mode mode) {
    // Two of the four greedy containers on each node are AMs: each node gives only its two others.
    greedyIn(mode, "root.preemptable.child-1", 2, 2);
    halfTheCluster("starving", "root.preemptable.child-2");
    verify("starving", 2, 4);
    assertThat(cluster.preemptable().stream().filter(c -> c.appId().equals("starving"))
        .map(c -> c.nodeId()).collect(Collectors.toSet())).containsExactlyInAnyOrder("host1", "host2");
    assertThat(cluster.preemptable().stream().filter(c -> c.appId().equals("greedy")))
        .allMatch(c -> c.am());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void noApplicationIsTakenBelowItsFairShare(Mode mode) {
    // 3 GB containers: three of greedy's go for one, leaving it 5 GB; a second would take it below its
    // 4 GB share, so the starving application gets one container.
    greedyIn(mode, "root.preemptable.child-1");
    starving("starving", "root.preemptable.child-2", Ask.anyOf(mb(3072, 3), 4));
    verify("starving", 1, 5);
  }

  @ParameterizedTest
  @EnumSource(value = Mode.class, names = {"FAIR_SHARE", "FAIR_SHARE_DRF"})
  void preemptionBetweenSiblingsWhoseParentIsAtItsFairShare(Mode mode) {
    greedyIn(mode, "root.preemptable.child-1");
    // The parent's sibling takes half the cluster.
    halfTheCluster("sibling", "root.preemptable-sibling");
    verify("sibling", 2, 4);
    // child-2 then splits the parent's 4 GB with child-1: 2 GB from greedy.
    halfTheCluster("starving", "root.preemptable.child-2");
    verify("starving", 1, 2);
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aHostRequestWhoseNodeWouldCostAnAmIsServedFromANodeThatCostsNone(Mode mode) {
    // Every container on host1 is an AM. The starving application asks for four 1 GB containers on
    // host1: host1 could only give AMs, so with locality relaxed the four come from host2. As in Hadoop, the application gets none of them
    // (they are not on host1).
    greedyIn(mode, "root.preemptable.child-1", 4, 0);
    starving("starving", "root.preemptable.child-2", onHost1(GB, 4));
    verify("starving", 0, 4);
    assertThat(cluster.preemptable().stream().filter(c -> c.appId().equals("greedy")))
        .allMatch(c -> c.nodeId().equals("host1") && c.am());
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aHostRequestStaysOnItsNodeWhenNoOtherCostsFewerAms(Mode mode) {
    // host1 runs three AMs and one task, host2 only AMs. One 2 GB container on host1 costs one AM there
    // and two on host2: host1 gives it. (Who then gets the space is assignment's business: Hadoop sizes a
    // priority's containers by its * request and gives the application nothing here; Bobbin places the
    // host1 request.)
    greedyIn(mode, "root.preemptable.child-1", 3, 4);
    List<String> host2 = cluster.preemptable().stream().filter(c -> c.nodeId().equals("host2"))
        .map(c -> c.containerId()).toList();
    starving("starving", "root.preemptable.child-2", onHost1(mb(2048, 1), 1));
    assertThat(cluster.containersOf("greedy")).hasSize(6).containsAll(host2);
  }
}
