package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.LocalityFixtures.R1;
import static dev.bobbin.core.policy.LocalityFixtures.R2;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.LocalityFixtures;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Fair policy's locality through its policy set, pass after pass: YARN's accounting, relaxLocality,
 * and delay scheduling with {@code locality-threshold-node} / {@code -rack}. Four 4 GB nodes, a and b
 * in /r1, c and d in /r2, walked in that order; one queue; 1 GB containers.
 */
class FairLocalityTest {
  private static final Resource GB = LocalityFixtures.GB;
  private static final String APP = "application_1_0001";

  private SimulatedCluster cluster;
  private FairPolicySet policy;
  private final List<Assignment> placed = new ArrayList<>();
  private long now = 1_000_000;

  private void start(String fairSection, List<Ask> asks) {
    policy = SimulatedCluster.policy(fairSection + "\nqueues { q {} }");
    cluster = new SimulatedCluster(15_000);
    cluster.node("a", R1, res(4, 4)).node("b", R1, res(4, 4)).node("c", R2, res(4, 4)).node("d", R2, res(4, 4));
    cluster.app(APP, "root.q", now, asks.toArray(Ask[]::new));
  }

  /** Fills a node with another application's container, so it has no room. */
  private void fill(String node) {
    cluster.app("application_1_0099", "root.q", 0);
    cluster.run("application_1_0099", node, res(4, 4), false, 0);
  }

  /** One pass; returns where it placed, node-local or not. */
  private List<String> pass() {
    now += 500;
    List<Assignment> got = cluster.tick(policy, now).placed();
    placed.addAll(got);
    return got.stream().map(a -> a.nodeId() + " " + level(a)).toList();
  }

  private static String level(Assignment a) {
    return a.reason().contains("node-local") ? "node-local" : a.reason().contains("rack-local") ? "rack-local"
        : "off-switch";
  }

  @Test
  void oneContainerStrictlyOnBIsPlacedOnceAndOnB() {
    // Bobbin's AM library asks b (relaxLocality true) and * (false) for one container. a is walked
    // first and is not wanted; b takes it node-local, which uses up b's ask and *. Later passes
    // place nothing more, on a or anywhere.
    start("", LocalityFixtures.strictHostAsBobbinSendsIt("b", 1));
    assertThat(pass()).containsExactly("b node-local");
    assertThat(pass()).isEmpty();
    assertThat(cluster.waiting()).isEmpty();
  }

  @Test
  void hadoopsStrictHostShapeIsPlacedOnceAndOnBWithDelayOnToo() {
    start("locality-threshold-node = 1, locality-threshold-rack = 1", LocalityFixtures.strictHostAsHadoopSendsIt("b",
        R1, 1));
    assertThat(pass()).containsExactly("b node-local");
    assertThat(pass()).isEmpty();
  }

  @Test
  void aStrictRackRequestWaitsItsDelayCountingOnlyTheRacksNodes() {
    // Two containers strictly in /r2, node threshold 0.5 of 4 nodes: more than 2 opportunities
    // before rack-local. a and b are not in /r2 and are not opportunities at all. Pass 1: c is the
    // 1st (which starts the request at node-local) and d the 2nd; nothing. Pass 2: c is the 3rd,
    // more than 2: rack-local is allowed and the count starts again; c takes both.
    start("locality-threshold-node = 0.5, locality-threshold-rack = 0.5", LocalityFixtures.strictRack(R2, 2));
    assertThat(pass()).isEmpty();
    assertThat(pass()).containsExactly("c rack-local", "c rack-local");
  }

  @Test
  void aPreferenceForAFullHostPassesUpTheThresholdsThenGoesRackThenAnywhere() {
    // One container preferred on d (d, /r2 and * all relaxed), but c and d are full. Thresholds 0.5
    // of 4 nodes: a request passes up more than 2 opportunities at each level.
    //   pass 1: a (1st, starts node-local), b (2nd): nothing.
    //   pass 2: a (3rd, > 2): rack-local allowed, count from 0; a is not in /r2. b (1st): nothing.
    //   pass 3: a (2nd): nothing. b (3rd, > 2): off-switch allowed, and b takes it.
    start("locality-threshold-node = 0.5, locality-threshold-rack = 0.5", LocalityFixtures.preferHost("d", R2, 1));
    fill("c");
    fill("d");
    assertThat(pass()).isEmpty();
    assertThat(pass()).isEmpty();
    assertThat(pass()).containsExactly("b off-switch");
  }

  @Test
  void withoutDelayAPreferenceGoesToTheFirstNodeWalked() {
    // Hadoop's default, -1: the same request is placed off-switch on a at once.
    start("", LocalityFixtures.preferHost("d", R2, 1));
    fill("c");
    fill("d");
    assertThat(pass()).containsExactly("a off-switch");
  }

  @Test
  void aHostWithinTheThresholdIsWaitedFor() {
    // Threshold 1: more than 4 opportunities before rack-local. a, b and c are passed up (3), and
    // d, the 4th, takes the container node-local.
    start("locality-threshold-node = 1, locality-threshold-rack = 1", LocalityFixtures.preferHost("d", R2, 1));
    assertThat(pass()).containsExactly("d node-local");
  }

  @Test
  void onceRelaxedARequestStaysRelaxedForItsNextContainers() {
    // Two containers preferred on d, c and d full, thresholds 0.5: at pass 3 b is the opportunity
    // that allows off-switch, and b takes both containers; Hadoop keeps the level until a placement
    // more local than it brings it back.
    start("locality-threshold-node = 0.5, locality-threshold-rack = 0.5", LocalityFixtures.preferHost("d", R2, 2));
    fill("c");
    fill("d");
    pass();
    pass();
    assertThat(pass()).containsExactly("b off-switch", "b off-switch");
  }
}
