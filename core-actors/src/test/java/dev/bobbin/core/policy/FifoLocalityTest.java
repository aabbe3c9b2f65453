package dev.bobbin.core.policy;

import static dev.bobbin.core.policy.LocalityFixtures.R1;
import static dev.bobbin.core.policy.LocalityFixtures.R2;
import static dev.bobbin.core.policy.LocalityFixtures.fourNodes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The FIFO policy's locality: YARN's accounting and relaxLocality, no delay, no reservations. The
 * nodes are walked a, b, c, d, so a container that may go anywhere lands on a.
 */
class FifoLocalityTest {
  private final FifoPolicy policy = new FifoPolicy();

  private AllocationPlan assign(List<NodeView> nodes, List<Ask> asks) {
    AppView app = new AppView("application_1_0001", "appattempt_1_0001_000001", "default", 0, 1, asks);
    return policy.assign(List.of("default"), nodes, List.of(app));
  }

  private static List<String> nodesOf(AllocationPlan plan) {
    return plan.assignments().stream().map(Assignment::nodeId).toList();
  }

  @Test
  void oneContainerStrictlyOnBIsPlacedOnceAndOnB() {
    // The shape Bobbin's AM library sends: b's ask (relaxLocality true) and * (false), one
    // container. a comes first and is not wanted at all; b takes it node-local, which takes the
    // container from b's ask and from *: nothing is left to place on c or d.
    AllocationPlan plan = assign(fourNodes(), LocalityFixtures.strictHostAsBobbinSendsIt("b", 1));
    assertThat(nodesOf(plan)).containsExactly("b:1");
    assertThat(plan.assignments().get(0).reason()).contains("node-local");
  }

  @Test
  void hadoopsStrictHostShapeIsPlacedOnceAndOnBToo() {
    AllocationPlan plan = assign(fourNodes(), LocalityFixtures.strictHostAsHadoopSendsIt("b", R1, 1));
    assertThat(nodesOf(plan)).containsExactly("b:1");
  }

  @Test
  void aStrictHostRequestWaitsWhileItsHostIsFull() {
    // b is full: the container waits for b rather than going to a, c or d.
    List<NodeView> nodes = new ArrayList<>(fourNodes());
    NodeView b = nodes.get(1);
    nodes.set(1, b.allocate(b.capacity()));
    assertThat(assign(nodes, LocalityFixtures.strictHostAsBobbinSendsIt("b", 1)).isEmpty()).isTrue();
  }

  @Test
  void aStrictRackRequestFillsItsRackAndNothingElse() {
    // Ten containers in /r2: c and d hold four each, and the two left wait; a and b get none.
    AllocationPlan plan = assign(fourNodes(), LocalityFixtures.strictRack(R2, 10));
    assertThat(nodesOf(plan)).containsExactly("c:1", "c:1", "c:1", "c:1", "d:1", "d:1", "d:1", "d:1");
    assertThat(plan.assignments()).allSatisfy(a -> assertThat(a.reason()).contains("rack-local"));
  }

  @Test
  void aRelaxedPreferenceGoesToTheFirstNodeWithoutDelay() {
    // FIFO has no delay scheduling, as Hadoop's FifoScheduler: a preference for c goes off-switch
    // on a, the first node walked, and takes only the * ask; c's and /r2's asks stay, unused.
    AllocationPlan plan = assign(fourNodes(), LocalityFixtures.preferHost("c", R2, 1));
    assertThat(nodesOf(plan)).containsExactly("a:1");
    assertThat(plan.assignments().get(0).ask().isAny()).isTrue();
  }

  @Test
  void hostAsksBeyondStarAreNeverAllPlaced() {
    // Two containers wanted (* = 2), each may be on a, b or c (one each asked): two are placed,
    // node-local on a and then b, and c gets none although it was asked for.
    List<Ask> asks = List.of(LocalityFixtures.at("a", 1, true), LocalityFixtures.at("b", 1, true),
        LocalityFixtures.at("c", 1, true), LocalityFixtures.at(Ask.ANY, 2, false));
    assertThat(nodesOf(assign(fourNodes(), asks))).containsExactly("a:1", "b:1");
  }
}
