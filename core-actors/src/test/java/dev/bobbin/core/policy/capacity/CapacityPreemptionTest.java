package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityCluster.GB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.capacity.preemption.PreemptionRound;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The capacity policy's proportional preemption as the scheduler runs it: a round each monitoring
 * interval, receipts for the containers marked, kills for those chosen again after
 * max_wait_before_kill, cancellations for marks the rounds dropped.
 */
class CapacityPreemptionTest {
  private static final Resource ONE_GB = new Resource(GB, 1);
  /** a is guaranteed 70 % of 40 GB (28 GB) and its one user may hold the whole cluster; b 30 % (12 GB). */
  private static final String QUEUES = "queues { a { capacity = 70, user-limit-factor = 2 }, b { capacity = 30 } }\n";

  /** a holds all 40 GB; b asks for 20 GB and has been activated by a pass. */
  private static CapacityCluster aFillsTheClusterThenBAsks(String preemption) {
    return aFillsTheClusterThenBAsks(QUEUES, preemption);
  }

  private static CapacityCluster aFillsTheClusterThenBAsks(String queues, String preemption) {
    CapacityCluster c = new CapacityCluster(queues + "preemption { enabled = true" + preemption + " }")
        .nodes(10, 4 * GB, 4);
    c.submit("app-a", "a", "alice");
    c.ask("app-a", ONE_GB, 40);
    c.settle();
    c.submit("app-b", "b", "bob");
    c.ask("app-b", ONE_GB, 20);
    assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
    return c;
  }

  private static List<String> marked(PolicyUpdate u) {
    List<String> ids = new ArrayList<>();
    for (Preemption p : u.preemptions()) p.victims().forEach(v -> ids.addAll(v.containerIds()));
    return ids;
  }

  @Test
  void withHadoopsDefaultsOneContainerARoundIsTakenUntilAIsWithinItsDeadZone() {
    CapacityCluster c = aFillsTheClusterThenBAsks("");
    assertThat(c.policy.updateInterval()).contains(Duration.ofSeconds(3));

    // Ideal: a 28 GB, b 12 GB (its 20 GB ask counted up to bob's user limit, the queue's 12 GB).
    // a must give back 12 GB; a round may take 10 % of the cluster, 4 GB, so the 12 are scaled to 4,
    // and natural_termination_factor 0.2 leaves 0.8 GB for this round: one container of 1 GB, a's
    // newest.
    PolicyUpdate first = c.update(0);
    assertThat(marked(first)).containsExactly("c00040");
    assertThat(first.kills()).isEmpty();
    Preemption receipt = first.preemptions().get(0);
    assertThat(receipt.kind()).isEqualTo(PreemptionRound.KIND);
    assertThat(receipt.starvedAppId()).isNull();
    assertThat(receipt.starvedQueue()).isEqualTo("root.b");
    assertThat(receipt.victims().get(0).appId()).isEqualTo("app-a");
    assertThat(receipt.victims().get(0).reason()).contains("from root.a").contains("freed for root.b");

    // Within max_wait_before_kill (15 s) the rounds choose the same container again and wait.
    for (long t = 3000; t < 15_000; t += 3000) {
      PolicyUpdate u = c.update(t);
      assertThat(marked(u)).as("at %d ms", t).isEmpty();
      assertThat(u.kills()).as("at %d ms", t).isEmpty();
    }
    // The first round at or after 15 s kills it; b takes the freed GB.
    assertThat(c.update(15_000).kills()).containsExactly("c00040");
    c.settle();
    assertThat(c.queueGb("b")).isEqualTo(1);

    // So on, one GB each 18 s, until a is within 10 % over its guarantee (max_ignored_over_capacity):
    // 30 GB, not above 30.8. b ends at 10 GB, short of its 12: the dead zone is a's to keep.
    for (long t = 18_000; t <= 400_000; t += 3000) {
      c.update(t);
      c.settle();
    }
    assertThat(c.queueGb("a")).isEqualTo(30);
    assertThat(c.queueGb("b")).isEqualTo(10);
    assertThat(c.preempting()).isEmpty();
  }

  @Test
  void withoutDampingBReachesItsGuaranteeInOneRoundAndAKeepsItsOwn() {
    CapacityCluster c = aFillsTheClusterThenBAsks(", total-preemption-per-round = 1.0, natural-termination-factor = 1.0,"
        + " max-ignored-over-capacity = 0, max-wait-before-kill = 1s");
    // a gives back all 12 GB it holds over its ideal assignment at once: its 12 newest containers.
    PolicyUpdate first = c.update(0);
    assertThat(marked(first)).hasSize(12).contains("c00040", "c00029");
    assertThat(c.update(1000).kills()).hasSize(12);
    c.settle();
    assertThat(c.queueGb("b")).isEqualTo(12);
    assertThat(c.queueGb("a")).isEqualTo(28);
    // Nothing more is taken: both queues hold their guarantees.
    for (long t = 2000; t <= 10_000; t += 1000) {
      PolicyUpdate u = c.update(t);
      assertThat(marked(u)).isEmpty();
      assertThat(u.kills()).isEmpty();
    }
  }

  @Test
  void containersKilledButNotYetEndedCountAsGoneAndStayBeingTakenBack() {
    CapacityCluster c = aFillsTheClusterThenBAsks(", total-preemption-per-round = 1.0, natural-termination-factor = 1.0,"
        + " max-ignored-over-capacity = 0, max-wait-before-kill = 1s");
    assertThat(marked(c.update(0))).hasSize(12);
    assertThat(c.update(1000, false).kills()).hasSize(12);
    // The nodes have not reported the 12 ended: a still holds 40 GB. The rounds read a as holding
    // 28, so they take nothing more, and the 12 are neither marked afresh nor cancelled.
    for (long t = 2000; t <= 40_000; t += 1000) {
      PolicyUpdate u = c.update(t, false);
      assertThat(marked(u)).as("at %d ms", t).isEmpty();
      assertThat(u.kills()).as("at %d ms", t).isEmpty();
      assertThat(u.cancelled()).as("at %d ms", t).isEmpty();
    }
    assertThat(c.preempting()).hasSize(12);
    c.endKills();
    c.settle();
    assertThat(c.queueGb("b")).isEqualTo(12);
  }

  @Test
  void aMarkTheRoundsNoLongerChooseIsCancelledAfterTwiceTheWaitAndNothingIsKilled() {
    CapacityCluster c = aFillsTheClusterThenBAsks("");
    assertThat(marked(c.update(0))).containsExactly("c00040");
    // b's application ends: no queue wants anything, the rounds choose nothing. The mark is kept
    // (had the container been chosen again it would be killed at once) until more than twice
    // max_wait_before_kill, 30 s, has passed since it was made; then it is cancelled.
    c.finish("app-b");
    for (long t = 3000; t <= 30_000; t += 3000) {
      PolicyUpdate u = c.update(t);
      assertThat(u.kills()).isEmpty();
      assertThat(u.cancelled()).as("at %d ms", t).isEmpty();
    }
    PolicyUpdate later = c.update(33_000);
    assertThat(later.cancelled()).containsExactly("c00040");
    assertThat(later.kills()).isEmpty();
    assertThat(c.queueGb("a")).isEqualTo(40);
  }

  @Test
  void aRoundCancelsTheNodeReservationsOfTheApplicationsItTakesFrom() {
    CapacityCluster c = new CapacityCluster(QUEUES + "preemption { enabled = true, max-ignored-over-capacity = 0,"
        + " natural-termination-factor = 1.0, total-preemption-per-round = 1.0 }").nodes(10, 4 * GB, 4);
    // a holds one 3 GB container on each node: 1 GB is left free on each.
    c.submit("app-a", "a", "alice");
    c.ask("app-a", new Resource(3 * GB, 1), 10);
    c.settle();
    // A second application of a wants 2 GB, which no node has free: it reserves one.
    c.submit("app-a2", "a", "alice");
    c.ask("app-a2", new Resource(2 * GB, 1), 1);
    c.settle();
    assertThat(c.policy.nodeReservations()).hasSize(1);
    // b takes the free GB of the nodes not reserved and wants more, short of its 12 GB guarantee.
    c.submit("app-b", "b", "bob");
    c.ask("app-b", ONE_GB, 20);
    c.settle();
    assertThat(c.queueGb("b")).isLessThan(12);

    // a, holding 30 GB and reserved space against an ideal assignment of 28 GB, gives back (no dead
    // zone, no damping here); the round takes from its newest application first, whose reservations
    // go before any container.
    c.update(0);
    assertThat(c.policy.lastRound().reservationsToCancel()).isNotEmpty()
        .allSatisfy(r -> assertThat(r.appId()).isEqualTo("app-a2"));
    assertThat(c.policy.nodeReservations()).isEmpty();
  }

  @Test
  void observeOnlyComputesTheRoundAndTakesNothing() {
    CapacityCluster c = aFillsTheClusterThenBAsks(", observe-only = true");
    for (long t = 0; t <= 60_000; t += 3000) {
      PolicyUpdate u = c.update(t);
      assertThat(u.preemptions()).isEmpty();
      assertThat(u.kills()).isEmpty();
      // What the round would take, for the log: a's newest container, every round.
      assertThat(u.observed()).singleElement().satisfies(p ->
          assertThat(p.victims().get(0).containerIds()).containsExactly("c00040"));
    }
    PreemptionRound.Result round = c.policy.lastRound();
    assertThat(round.observeOnly()).isTrue();
    assertThat(round.selection().victims()).hasSize(1);
    assertThat(c.queueGb("a")).isEqualTo(40);
  }

  @Test
  void aQueueWithPreemptionDisabledKeepsEveryContainer() {
    CapacityCluster c = aFillsTheClusterThenBAsks("queues { a { capacity = 70, user-limit-factor = 2,"
        + " disable-preemption = true }, b { capacity = 30 } }\n", ", total-preemption-per-round = 1.0,"
        + " natural-termination-factor = 1.0, max-wait-before-kill = 1s");
    for (long t = 0; t <= 10_000; t += 1000) assertThat(marked(c.update(t))).isEmpty();
    assertThat(c.queueGb("a")).isEqualTo(40);
  }

  @Test
  void withTheMonitorOffThereAreNoRounds() {
    CapacityCluster c = new CapacityCluster(QUEUES).nodes(10, 4 * GB, 4);
    c.submit("app-a", "a", "alice");
    c.ask("app-a", ONE_GB, 40);
    c.settle();
    assertThat(c.policy.updateInterval()).isEmpty();
    assertThat(c.update(0)).isEqualTo(PolicyUpdate.NONE);
  }
}
