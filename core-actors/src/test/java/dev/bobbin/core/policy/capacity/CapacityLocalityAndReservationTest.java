package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityCluster.GB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Delay scheduling and node reservations of the capacity policy, as Hadoop's CapacityScheduler does them. */
class CapacityLocalityAndReservationTest {
  private static final Resource ONE_GB = new Resource(GB, 1);

  private static String placedOn(AllocationPlan plan) {
    assertThat(plan.assignments()).hasSize(1);
    return plan.assignments().get(0).nodeId();
  }

  @Nested
  class DelayScheduling {
    // Three nodes: n1 and n2 of 1 GB in /r1, n3 of 8 GB in /r2. A filler takes n1, so a request for
    // host n1 finds its host full. node-locality-delay 2: rack-local once more than min(3, 2) = 2
    // opportunities were missed; rack-locality-additional-delay 1: off-switch once more than
    // min(3, 2 + 1) = 3 were.
    private CapacityCluster cluster(String extra) {
      CapacityCluster c = new CapacityCluster("node-locality-delay = 2, rack-locality-additional-delay = 1" + extra
          + "\nqueues { a { capacity = 100 } }")
          .node("n1", "/r1", GB, 1).node("n2", "/r1", GB, 1).node("n3", "/r2", 8 * GB, 8);
      c.submit("filler", "a", "alice");
      c.ask("filler", ONE_GB, 1);
      assertThat(placedOn(c.pass(Integer.MAX_VALUE))).isEqualTo("n1");
      c.submit("app", "a", "bob");
      return c;
    }

    @Test
    void aNodeLocalRequestWaitsThenGoesRackLocalThenOffSwitch() {
      CapacityCluster c = cluster("");
      c.askOn("app", ONE_GB, 2, "n1", "/r1", true);
      // Pass 1: n2 is opportunity 1, n3 opportunity 2: neither is above 2, nothing is placed.
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      // Pass 2: n2 is opportunity 3, above 2: rack-local on n2. A rack-local container starts the
      // count again (rack-locality-full-reset is on by default), so n3 is opportunity 1.
      Assignment rackLocal = c.pass(Integer.MAX_VALUE).assignments().get(0);
      assertThat(rackLocal.nodeId()).isEqualTo("n2");
      assertThat(rackLocal.ask().resourceName()).isEqualTo("/r1");
      assertThat(rackLocal.reason()).contains("rack-local");
      // n3 is opportunity 2 and 3 in the next passes, then 4, above 3: off-switch.
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      Assignment offSwitch = c.pass(Integer.MAX_VALUE).assignments().get(0);
      assertThat(offSwitch.nodeId()).isEqualTo("n3");
      assertThat(offSwitch.ask().resourceName()).isEqualTo("*");
      assertThat(offSwitch.reason()).contains("off-switch");
    }

    @Test
    void withoutTheFullResetARackLocalContainerKeepsTheCount() {
      CapacityCluster c = cluster(", rack-locality-full-reset = false");
      c.askOn("app", ONE_GB, 2, "n1", "/r1", true);
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      // Pass 2: rack-local on n2 at opportunity 3; the count stays, n3 is opportunity 4: off-switch.
      List<Assignment> placed = c.pass(Integer.MAX_VALUE).assignments();
      assertThat(placed).extracting(Assignment::nodeId).containsExactly("n2", "n3");
    }

    @Test
    void aContainerOnItsHostIsPlacedAtOnce() {
      CapacityCluster c = cluster("");
      c.askOn("app", ONE_GB, 1, "n3", "/r2", true);
      // n2 misses (opportunity 1); n3 is the host: node-local without delay.
      Assignment a = c.pass(Integer.MAX_VALUE).assignments().get(0);
      assertThat(a.nodeId()).isEqualTo("n3");
      assertThat(a.reason()).contains("node-local");
    }

    @Test
    void aStrictRequestIsNeverPlacedElsewhere() {
      CapacityCluster c = cluster("");
      c.askOn("app", ONE_GB, 1, "n1", "/r1", false);
      // However many opportunities are missed, a request with relaxLocality false at its rack and
      // at * waits for its host.
      for (int i = 0; i < 50; i++) assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      c.finish("filler");
      assertThat(placedOn(c.pass(Integer.MAX_VALUE))).isEqualTo("n1");
    }
  }

  @Nested
  class Reservations {
    // Two nodes of 10 GB; one queue with the whole cluster. "small" holds 6 GB on n1 and "other"
    // 6 GB on n2, so each node has 4 GB free. "big" (submitted next, first in FIFO order) wants one
    // 5 GB container, "late" (submitted last) four of 1 GB.
    private CapacityCluster cluster() {
      CapacityCluster c = new CapacityCluster("queues { a { capacity = 100 } }").nodes(2, 10 * GB, 8);
      c.submit("small", "a", "alice");
      c.ask("small", new Resource(6 * GB, 1), 1);
      c.submit("other", "a", "alice");
      c.ask("other", new Resource(6 * GB, 1), 1);
      c.settle();
      c.submit("big", "a", "alice");
      c.ask("big", new Resource(5 * GB, 1), 1);
      c.submit("late", "a", "alice");
      c.ask("late", ONE_GB, 4);
      // n1 has 4 GB free: big's 5 GB would fit the node once free, so big reserves n1 and nothing
      // else goes there; the queue now counts 12 + 5 = 17 GB of its 20. On n2 big may not reserve
      // another node (it wants one container and holds one reservation), so late gets 3 GB of n2's
      // 4, which brings the queue to its maximum.
      List<Assignment> first = c.pass(Integer.MAX_VALUE).assignments();
      assertThat(first).extracting(Assignment::appId).containsExactly("late", "late", "late");
      assertThat(first).extracting(Assignment::nodeId).containsOnly("n2");
      assertThat(c.policy.nodeReservations()).containsOnlyKeys("n1");
      assertThat(c.policy.nodeReservations().get("n1").appId()).isEqualTo("big");
      return c;
    }

    @Test
    void aLargeContainerReservesANodeAndIsServedThereBeforeSmallerAsks() {
      CapacityCluster c = cluster();
      // While n1 stays short, its 4 GB go to nobody: late's last container waits.
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      assertThat(c.app("late").containers).hasSize(3);
      // small's container on n1 ends: n1 is offered to big first, which gets it, and the
      // reservation is gone. Nothing else goes on n1 in that pass; with the queue below its maximum
      // again, late gets its last container on n2.
      c.finish("small");
      List<Assignment> served = c.pass(Integer.MAX_VALUE).assignments();
      assertThat(served).extracting(Assignment::appId).containsExactly("big", "late");
      assertThat(served).extracting(Assignment::nodeId).containsExactly("n1", "n2");
      assertThat(served.get(0).reason()).contains("node reserved for it");
      assertThat(c.policy.nodeReservations()).isEmpty();
    }

    @Test
    void aReservationCountsInTheQueuesUseAndTheViewAndGoesWithItsApplication() {
      CapacityCluster c = cluster();
      // 12 GB of small and other, 3 GB of late, and big's 5 GB reserved on n1: 20 GB used, as
      // Hadoop counts a reserved container in its queue's used resources.
      CapacityView.QueueRow a = ((CapacityView) c.policy.view(c)).root().children().get(0);
      assertThat(a.used()).isEqualTo(new Resource(20 * GB, 6));
      assertThat(a.reserved()).isEqualTo(new Resource(5 * GB, 1));
      assertThat(a.reservedContainers()).isEqualTo(1);
      // big withdraws its ask: the reservation holds nothing, in the view at once, in the state at
      // the next pass.
      List<Ask> asked = List.copyOf(c.app("big").asks);
      c.app("big").asks.clear();
      assertThat(((CapacityView) c.policy.view(c)).root().children().get(0).reservedContainers()).isZero();
      c.app("big").asks.addAll(asked);
      c.finish("big");
      assertThat(c.policy.nodeReservations()).isEmpty();
      // The queue has room again, and n1's free space goes to late.
      assertThat(placedOn(c.pass(Integer.MAX_VALUE))).isEqualTo("n1");
    }

    @Test
    void aReservedContainerTakesAnotherNodeThatHasRoomFirst() {
      CapacityCluster c = cluster();
      // other's container on n2 ends: n2 has 7 GB free. n1, still short, keeps big's reservation;
      // on n2 big, which may not take another node while it holds one, gives up n1 and is placed on
      // n2 (Hadoop's reservations-continue-looking). late then gets its last container there.
      c.finish("other");
      List<Assignment> next = c.pass(Integer.MAX_VALUE).assignments();
      assertThat(next).extracting(Assignment::appId).containsExactly("big", "late");
      assertThat(next).extracting(Assignment::nodeId).containsOnly("n2");
      assertThat(next.get(0).reason()).contains("giving up its reservation of n1");
      assertThat(c.policy.nodeReservations()).isEmpty();
    }

    @Test
    void withoutContinueLookingAReservedContainerWaitsForItsNode() {
      CapacityCluster c = new CapacityCluster("reservations-continue-looking = false\nqueues { a { capacity = 100 } }")
          .nodes(2, 10 * GB, 8);
      c.submit("small", "a", "alice");
      c.ask("small", new Resource(6 * GB, 1), 1);
      c.submit("other", "a", "alice");
      c.ask("other", new Resource(6 * GB, 1), 1);
      // small takes n1; other's 6 GB do not fit n1's 4 GB free, so other reserves n1. Holding as many
      // reservations as it wants containers, other is not even offered the empty n2.
      assertThat(placedOn(c.pass(Integer.MAX_VALUE))).isEqualTo("n1");
      assertThat(c.policy.nodeReservations()).containsOnlyKeys("n1");
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      // small ends: other gets n1, the node reserved for it.
      c.finish("small");
      assertThat(placedOn(c.pass(Integer.MAX_VALUE))).isEqualTo("n1");
      assertThat(c.app("other").containers).hasSize(1);
    }
  }
}
