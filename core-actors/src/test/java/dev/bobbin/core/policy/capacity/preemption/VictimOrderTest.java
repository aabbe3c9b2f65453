package dev.bobbin.core.policy.capacity.preemption;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.OrderingPolicy;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order preemption takes a leaf's applications in: the reverse of the order the leaf serves them. */
class VictimOrderTest {
  private static AppSnapshot app(String id, int priority, long submitTime, int usedGb, int pendingGb) {
    return new AppSnapshot(id, id + "-attempt", "root.a", priority, submitTime, new Resource(usedGb * 1024L, usedGb),
        Resource.NONE, new Resource(pendingGb * 1024L, pendingGb), Resource.NONE);
  }

  private static List<String> order(OrderingPolicy policy, AppSnapshot... apps) {
    return VictimOrder.applications(policy, List.of(apps)).stream().map(AppSnapshot::appId).toList();
  }

  @Test
  void fifoTakesFromTheLowestPriorityFirstThenTheNewest() {
    AppSnapshot first = app("application_5_0001", 1, 1, 4, 0);
    AppSnapshot urgent = app("application_5_0002", 2, 2, 4, 0);
    AppSnapshot newest = app("application_5_0003", 1, 3, 4, 0);
    assertThat(order(OrderingPolicy.FIFO, first, urgent, newest))
        .containsExactly("application_5_0003", "application_5_0001", "application_5_0002");
  }

  @Test
  void fifoComparesApplicationIdsAsYarnDoesClusterTimestampFirst() {
    AppSnapshot older = app("application_9_0003", 0, 5, 1, 0);
    AppSnapshot newer = app("application_10_0002", 0, 5, 1, 0);
    assertThat(order(OrderingPolicy.FIFO, newer, older)).containsExactly("application_10_0002", "application_9_0003");
  }

  @Test
  void fairTakesFromTheApplicationUsingMostFirst() {
    // The fair order serves the one using least first; then the earlier, then those that ask.
    AppSnapshot big = app("application_5_0001", 0, 1, 5, 1);
    AppSnapshot small = app("application_5_0002", 0, 2, 1, 1);
    AppSnapshot bigLater = app("application_5_0003", 0, 3, 5, 1);
    AppSnapshot idle = app("application_5_0004", 0, 4, 0, 0);
    assertThat(order(OrderingPolicy.FAIR, big, small, bigLater, idle)).containsExactly(
        "application_5_0003", "application_5_0001", "application_5_0002", "application_5_0004");
  }

  @Test
  void containerIdsCompareWithTheEpochAboveTheSequence() {
    assertThat(VictimOrder.compareContainerIds("container_e1_5_0001_01_000001", "container_5_0001_01_000005"))
        .isPositive();
    assertThat(VictimOrder.compareContainerIds("container_5_0001_01_000010", "container_5_0001_01_000009"))
        .isPositive();
    assertThat(VictimOrder.compareContainerIds("container_5_0001_02_000001", "container_5_0001_01_000009"))
        .isPositive();
  }
}
