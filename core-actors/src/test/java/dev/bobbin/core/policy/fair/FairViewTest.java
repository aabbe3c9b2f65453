package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.FairTestQueues.mb;
import static dev.bobbin.core.policy.fair.FairTestQueues.queue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheduler view shows max shares as Hadoop's REST API does. */
class FairViewTest {
  private static final Resource CLUSTER = mb(8192, 8);

  @Test
  void maxResourcesAreRaisedToTheMinAndClippedToTheCluster() {
    QueueSpec unlimited = queue("root.unlimited").build();
    QueueSpec belowMin = queue("root.belowmin").min(2048, 2).max(1024, 4).build();
    QueueSpec beyond = queue("root.beyond").max(100_000, 2).build();
    QueueSpec root = queue("root").max(CLUSTER.memory(), CLUSTER.vCores()).children(unlimited, belowMin, beyond).build();
    FairShares shares = FairShareCalculator.compute(root, CLUSTER, List.of());

    Map<String, Object> view = new FairView(root, shares, CLUSTER, Map.of()).schedulerInfo();

    assertThat(maxOf(view, "root.unlimited")).isEqualTo(CLUSTER);
    assertThat(maxOf(view, "root.belowmin")).isEqualTo(mb(2048, 4));
    assertThat(maxOf(view, "root.beyond")).isEqualTo(mb(8192, 2));
  }

  @SuppressWarnings("unchecked")
  private static Resource maxOf(Map<String, Object> view, String queue) {
    Map<String, Object> root = (Map<String, Object>) view.get("rootQueue");
    List<Map<String, Object>> children = (List<Map<String, Object>>) ((Map<String, Object>) root.get("childQueues")).get("queue");
    return children.stream().filter(c -> c.get("queueName").equals(queue)).map(c -> (Resource) c.get("maxResources"))
        .findFirst().orElseThrow();
  }
}
