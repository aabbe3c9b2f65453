package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityTestQueues.gb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.parent;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.queue;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.root;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.seedTree;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.QueueOrdering.Candidate;
import dev.bobbin.core.policy.capacity.QueueOrdering.Ranked;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class QueueOrderingTest {

  /** The children of {@code parent} in the order it offers them resources, given what the leaves use. */
  private static List<String> order(CapacityTree t, String parent, Map<String, Resource> leafUsed) {
    return QueueOrdering.children(t, parent, t.rollUp(leafUsed)).stream().map(Ranked::path).toList();
  }

  /** The seed's a (40 %), b (50 %) and c (10 %) on 100 GB. */
  @Nested
  class InTheTree {
    private final Resource cluster = gb(100, 100);

    @Test
    void theQueueUsingLeastOfItsGuaranteeGoesFirst() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      // a uses 30 GB of its 40 (0.75), b 40 of 50 (0.8), c 5 of 10 (0.5).
      Map<String, Resource> used = t.rollUp(Map.of(
          "root.a.a1", gb(30, 30), "root.b.b1", gb(40, 40), "root.c", gb(5, 5)));
      List<Ranked> order = QueueOrdering.children(t, "root", used);
      assertThat(order).extracting(Ranked::path).containsExactly("root.c", "root.a", "root.b");
      assertThat(order.get(0).candidate().usedCapacity()).isEqualTo(0.5f);
      assertThat(order.get(0).reason()).contains("used 0.5 of its guarantee (under it)");
    }

    @Test
    void aQueueBeyondItsGuaranteeWaitsForTheOthers() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      // Elasticity: c has grown to 25 GB, 2.5 times its guarantee; a and b use nothing.
      assertThat(order(t, "root", Map.of("root.c", gb(25, 25))))
          .containsExactly("root.b", "root.a", "root.c");
    }

    @Test
    void withPriorityUtilizationTheHigherPriorityGoesFirstAmongQueuesOnTheSameSideOfTheirGuarantee() {
      CapacityQueueSpec spec = root(queue("root.a", 40), queue("root.b", 50).priority(1), queue("root.c", 10))
          .toBuilder().orderingPolicy(OrderingPolicy.PRIORITY_UTILIZATION).build();
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      // All three under their guarantees (0.75, 0.8, 0.5): b's priority 1 puts it first; then c
      // before a by use.
      assertThat(order(t, "root", Map.of("root.a", gb(30, 30), "root.b", gb(40, 40), "root.c", gb(5, 5))))
          .containsExactly("root.b", "root.c", "root.a");
      // b over its guarantee (60 GB of 50): the queues under theirs go first whatever b's priority.
      assertThat(order(t, "root", Map.of("root.a", gb(30, 30), "root.b", gb(60, 60), "root.c", gb(5, 5))))
          .containsExactly("root.c", "root.a", "root.b");
    }

    @Test
    void underTheDefaultUtilizationPolicyPrioritiesAreNotRead() {
      CapacityQueueSpec spec = root(queue("root.a", 40), queue("root.b", 50).priority(1), queue("root.c", 10));
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      assertThat(order(t, "root", Map.of("root.a", gb(30, 30), "root.b", gb(40, 40), "root.c", gb(5, 5))))
          .containsExactly("root.c", "root.a", "root.b");
    }

    @Test
    void theDominantCalculatorMeasuresUseByTheLargerShare() {
      CapacityQueueSpec spec = root(queue("root.a", 50), queue("root.b", 50));
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DOMINANT));
      // a: 10 GB but 40 vcores of its 50 (0.8); b: 30 GB and 5 vcores (0.6). By memory a would go
      // first; by dominant share b does.
      Map<String, Resource> used = Map.of("root.a", gb(10, 40), "root.b", gb(30, 5));
      assertThat(order(t, "root", used)).containsExactly("root.b", "root.a");
      CapacityTree byMemory = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      assertThat(order(byMemory, "root", used)).containsExactly("root.a", "root.b");
    }

    @Test
    void onATieTheLargerQueueGoesFirstThenTheConfiguredOrder() {
      CapacityQueueSpec spec = root(queue("root.x", 20), queue("root.y", 20), queue("root.big", 60));
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      assertThat(order(t, "root", Map.of())).containsExactly("root.big", "root.x", "root.y");
      CapacityQueueSpec absolute = root(queue("root.x", gb(20, 1)), queue("root.y", gb(20, 2)));
      CapacityTree a = CapacityTree.compute(absolute, cluster, settings(ResourceMath.DEFAULT));
      // Equal memory: the configured absolute resources compare memory then vcores.
      assertThat(order(a, "root", Map.of())).containsExactly("root.y", "root.x");
    }

    @Test
    void aParentOrdersItsOwnChildren() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      // b1, b2 unused: b2 is larger; b3 uses 10 GB of its 35.
      assertThat(order(t, "root.b", Map.of("root.b.b3", gb(10, 10))))
          .containsExactly("root.b.b2", "root.b.b1", "root.b.b3");
      assertThat(parent(queue("root.q", 100), queue("root.q.x", 100)).build().orderingPolicy())
          .isEqualTo(OrderingPolicy.UTILIZATION);
    }
  }

  /** Hadoop's TestPriorityUtilizationQueueOrderingPolicy cases, with its numbers. */
  @Nested
  class HadoopsCases {
    private List<String> order(boolean respectPriority, String[] names, int[] priorities, float[] used,
        float[] absoluteCapacities) {
      List<Candidate> candidates = new ArrayList<>();
      for (int i = 0; i < names.length; i++) {
        candidates.add(new Candidate(names[i], priorities[i], absoluteCapacities[i], used[i], 0f, Resource.NONE));
      }
      return QueueOrdering.order(candidates, respectPriority).stream().map(Ranked::path).toList();
    }

    @Test
    void utilizationOrdering() {
      assertThat(order(false, new String[] {"a", "b"}, new int[] {0, 0}, new float[] {0.1f, 0f},
          new float[] {0.2f, 0.3f})).containsExactly("b", "a");
      assertThat(order(false, new String[] {"a", "b", "c"}, new int[] {0, 0, 0}, new float[] {0.1f, 0f, 0.2f},
          new float[] {0.2f, 0.3f, 0.4f})).containsExactly("b", "a", "c");
      // Priorities ignored.
      assertThat(order(false, new String[] {"a", "b", "c"}, new int[] {2, 1, 0}, new float[] {0.1f, 0f, 0.2f},
          new float[] {0.2f, 0.3f, 0.4f})).containsExactly("b", "a", "c");
    }

    @Test
    void priorityUtilizationOrdering() {
      String[] ab = {"a", "b"};
      float[] caps = {0.2f, 0.3f};
      // Both under, same priority: less used first. Both over: less used first.
      assertThat(order(true, ab, new int[] {1, 1}, new float[] {0.2f, 0.1f}, caps)).containsExactly("b", "a");
      assertThat(order(true, ab, new int[] {1, 1}, new float[] {1.1f, 1.2f}, caps)).containsExactly("a", "b");
      // Both over or both under with different priorities: higher priority first.
      assertThat(order(true, ab, new int[] {1, 2}, new float[] {1.1f, 1.2f}, caps)).containsExactly("b", "a");
      assertThat(order(true, ab, new int[] {1, 2}, new float[] {0.1f, 0.2f}, caps)).containsExactly("b", "a");
      // One under, one over (or exactly at its guarantee): the one under first, whatever the priorities.
      assertThat(order(true, ab, new int[] {1, 2}, new float[] {0.1f, 1.2f}, caps)).containsExactly("a", "b");
      assertThat(order(true, ab, new int[] {2, 1}, new float[] {0.1f, 1.2f}, caps)).containsExactly("a", "b");
      assertThat(order(true, ab, new int[] {1, 2}, new float[] {0.1f, 1.0f}, caps)).containsExactly("a", "b");
      // Both exactly at their guarantees: higher priority first.
      assertThat(order(true, ab, new int[] {1, 2}, new float[] {1.0f, 1.0f}, caps)).containsExactly("b", "a");
      // Five queues.
      assertThat(order(true, new String[] {"a", "b", "c", "d", "e"}, new int[] {1, 2, 0, 0, 3},
          new float[] {1.2f, 1.0f, 0.2f, 1.1f, 0.2f}, new float[] {0.2f, 0.1f, 0.1f, 0.3f, 0.3f}))
          .containsExactly("e", "c", "b", "a", "d");
    }

    @Test
    void queuesWithoutGuaranteeGoLast() {
      assertThat(order(true, new String[] {"a", "b"}, new int[] {1, 1}, new float[] {0.1f, 1.2f},
          new float[] {0f, 0.3f})).containsExactly("b", "a");
      assertThat(order(true, new String[] {"a", "b", "c", "d", "e"}, new int[] {1, 2, 0, 0, 3},
          new float[] {1.2f, 1.0f, 0.2f, 1.1f, 0.2f}, new float[] {0f, 0f, 0.1f, 0.3f, 0.3f}))
          .containsExactly("e", "c", "d", "b", "a");
    }
  }
}
