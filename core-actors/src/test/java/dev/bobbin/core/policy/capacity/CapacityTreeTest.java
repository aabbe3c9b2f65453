package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityTestQueues.gb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.mb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.parent;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.queue;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.root;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.seedTree;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.policy.capacity.CapacityTree.Utilization;
import dev.bobbin.protocol.Resource;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Capacities down the tree. The numbers are those Hadoop 3.4.2's CapacityScheduler reports for the
 * same configuration and cluster (its default queue mode), floats included.
 */
class CapacityTreeTest {

  /** The seed's hierarchy on a 100 GB, 100 vcore cluster. */
  @Nested
  class Percentages {
    private final Resource cluster = gb(100, 100);

    @ParameterizedTest
    @EnumSource(ResourceMath.class)
    void absoluteCapacitiesMultiplyDownTheTree(ResourceMath math) {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(math));
      // a: 40 % of the cluster, at most 60 %: 40 GB and 40 vcores guaranteed, 60 GB and 60 vcores at most.
      assertThat(t.queue("root.a").absoluteCapacity()).isEqualTo(0.4f);
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(gb(40, 40));
      assertThat(t.queue("root.a").maximum()).isEqualTo(gb(60, 60));
      // a1: 30 % of a's 40 %. In floats 0.3f x 0.4f is 0.120000005, so 12288.0005 MB, truncated to 12 GB.
      // With no maximum of its own it may grow to a's 60 %.
      assertThat(t.queue("root.a.a1").capacity()).isEqualTo(0.3f);
      assertThat(t.queue("root.a.a1").absoluteCapacity()).isEqualTo(0.120000005f);
      assertThat(t.queue("root.a.a1").guaranteed()).isEqualTo(gb(12, 12));
      assertThat(t.queue("root.a.a1").absoluteMaximumCapacity()).isEqualTo(0.6f);
      assertThat(t.queue("root.a.a1").maximum()).isEqualTo(gb(60, 60));
      // a2: 70 % of 40 % is 28 GB; at most 50 % of a's 60 %, so 30 % of the cluster: 30 GB.
      assertThat(t.queue("root.a.a2").absoluteCapacity()).isEqualTo(0.28f);
      assertThat(t.queue("root.a.a2").guaranteed()).isEqualTo(gb(28, 28));
      assertThat(t.queue("root.a.a2").absoluteMaximumCapacity()).isEqualTo(0.3f);
      assertThat(t.queue("root.a.a2").maximum()).isEqualTo(gb(30, 30));
      // b1 and b2: 10 % and 20 % of b's 50 %: 5 GB and 10 GB, at most b's 80 GB.
      assertThat(t.queue("root.b.b1").guaranteed()).isEqualTo(gb(5, 5));
      assertThat(t.queue("root.b.b2").guaranteed()).isEqualTo(gb(10, 10));
      assertThat(t.queue("root.b.b2").maximum()).isEqualTo(gb(80, 80));
      // b3: 0.7f x 0.5f is the float 0.35f, which is 0.3499999940...; 35 % of 102400 MB comes to
      // 35839.9994 MB and of 100 vcores to 34.9999994: Hadoop truncates both, to 35839 MB and 34 vcores.
      assertThat(t.queue("root.b.b3").absoluteCapacity()).isEqualTo(0.35f);
      assertThat(t.queue("root.b.b3").guaranteed()).isEqualTo(mb(35839, 34));
      // c: 10 % guaranteed, at most 30 %.
      assertThat(t.queue("root.c").guaranteed()).isEqualTo(gb(10, 10));
      assertThat(t.queue("root.c").maximum()).isEqualTo(gb(30, 30));
      // The root is the cluster.
      assertThat(t.queue("root").guaranteed()).isEqualTo(cluster);
      assertThat(t.queue("root").absoluteCapacity()).isEqualTo(1f);
    }

    @Test
    void queuesAreListedParentsFirstInConfiguredOrder() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      assertThat(t.queues()).extracting(QueueCapacities::path).containsExactly(
          "root", "root.a", "root.a.a1", "root.a.a2", "root.b", "root.b.b1", "root.b.b2", "root.b.b3", "root.c");
      assertThat(t.lineage("root.a.a2")).containsExactly("root", "root.a", "root.a.a2");
      assertThat(t.queue("root.a.a2").reason()).contains("capacity 70.0% of root.a").contains("maximum <memory:30720, vCores:30>");
    }

    @Test
    void aZeroCapacityQueueIsGuaranteedNothingButMayStillGrow() {
      CapacityQueueSpec spec = root(queue("root.a", 100), queue("root.idle", 0).maximumCapacity(25));
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      assertThat(t.queue("root.idle").absoluteCapacity()).isZero();
      assertThat(t.queue("root.idle").guaranteed()).isEqualTo(Resource.NONE);
      assertThat(t.queue("root.idle").maximum()).isEqualTo(gb(25, 25));
    }
  }

  /**
   * Hadoop's TestParentQueue example: a asks for 6 GB and 10 vcores, b for 14 GB and 22 vcores, 20 GB
   * and 32 vcores together. When the cluster is smaller, each resource type of every child is scaled
   * by what the cluster has of it over what the children ask of it; whether the cluster counts as
   * smaller is the resource calculator's comparison.
   */
  @Nested
  class AbsoluteResources {
    private final CapacityQueueSpec spec = root(queue("root.a", mb(6144, 10)), queue("root.b", mb(14336, 22)));

    @Test
    void aClusterThatHoldsThemGivesThemWhatTheyAsk() {
      CapacityTree t = CapacityTree.compute(spec, gb(20, 32), settings(ResourceMath.DEFAULT));
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(mb(6144, 10));
      assertThat(t.queue("root.b").guaranteed()).isEqualTo(mb(14336, 22));
      // The capacity is derived: 6 GB of 20 GB is 0.3 of the root. Without a maximum, the root's.
      assertThat(t.queue("root.a").capacity()).isEqualTo(0.3f);
      assertThat(t.queue("root.a").absoluteCapacity()).isEqualTo(0.3f);
      assertThat(t.queue("root.a").maximum()).isEqualTo(gb(20, 32));
      assertThat(t.queue("root.a").maximumCapacity()).isEqualTo(1f);
    }

    @Test
    void theDominantCalculatorDerivesCapacityFromTheLargerShare() {
      // 10 of 32 vcores (0.3125) is a larger share than 6 of 20 GB (0.3).
      CapacityTree t = CapacityTree.compute(spec, gb(20, 32), settings(ResourceMath.DOMINANT));
      assertThat(t.queue("root.a").capacity()).isEqualTo(0.3125f);
      assertThat(t.queue("root.b").capacity()).isEqualTo(0.7f);
    }

    @ParameterizedTest
    @EnumSource(ResourceMath.class)
    void aClusterHalfTheSizeHalvesThem(ResourceMath math) {
      // 10 GB over 20 GB asked and 16 over 32 vcores: 0.5 each. a: 3 GB, 5 vcores; b: 7 GB, 11 vcores.
      CapacityTree t = CapacityTree.compute(spec, gb(10, 16), settings(math));
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(mb(3072, 5));
      assertThat(t.queue("root.b").guaranteed()).isEqualTo(mb(7168, 11));
      assertThat(t.queue("root.a").reason()).contains("scaled by memory 0.5 vcores 0.5");
    }

    @ParameterizedTest
    @EnumSource(ResourceMath.class)
    void eachTypeIsScaledByItsOwnRatioEvenUpwards(ResourceMath math) {
      // 10 GB for 20 GB asked is short, so both calculators scale: memory by 0.5, and vcores by
      // 40/32 = 1.25, upwards: a gets 12.5 vcores, truncated to 12, b 27.5, truncated to 27.
      CapacityTree t = CapacityTree.compute(spec, gb(10, 40), settings(math));
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(mb(3072, 12));
      assertThat(t.queue("root.b").guaranteed()).isEqualTo(mb(7168, 27));
    }

    @Test
    void theDefaultCalculatorDoesNotSeeMissingVcores() {
      // 40 GB and 16 vcores: enough memory, so by the default calculator the cluster is not smaller
      // than what is asked and nothing is scaled, though the children ask for 32 vcores.
      CapacityTree t = CapacityTree.compute(spec, gb(40, 16), settings(ResourceMath.DEFAULT));
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(mb(6144, 10));
      assertThat(t.queue("root.b").guaranteed()).isEqualTo(mb(14336, 22));
      assertThat(t.queue("root.a").capacity()).isEqualTo(0.15f);
    }

    @Test
    void theDominantCalculatorScalesMemoryUpWhenVcoresAreShort() {
      // By dominant share the children's 32 vcores (2.0 of the cluster) outweigh its 16: the cluster
      // is smaller, and every type is scaled, memory by 40/20 = 2.0 too: a 12 GB, 5 vcores.
      CapacityTree t = CapacityTree.compute(spec, gb(40, 16), settings(ResourceMath.DOMINANT));
      assertThat(t.queue("root.a").guaranteed()).isEqualTo(mb(12288, 5));
      assertThat(t.queue("root.b").guaranteed()).isEqualTo(mb(28672, 11));
      assertThat(t.queue("root.a").capacity()).isEqualTo(0.3125f);
    }

    @Test
    void aQueueWithoutMaximumTakesItsParentsAndAParentMaximumCapsItsChildren() {
      CapacityQueueSpec nested = root(
          parent(queue("root.a", gb(8, 8)).maximumCapacity(QueueCapacity.absolute(gb(12, 12))),
              queue("root.a.x", gb(6, 6)), queue("root.a.y", gb(2, 2))
                  .maximumCapacity(QueueCapacity.absolute(gb(4, 4)))),
          queue("root.b", gb(8, 8)));
      CapacityTree t = CapacityTree.compute(nested, gb(32, 32), settings(ResourceMath.DEFAULT));
      // x has no maximum of its own: it inherits a's configured 12 GB. y's 4 GB is below it.
      assertThat(t.queue("root.a.x").maximum()).isEqualTo(gb(12, 12));
      assertThat(t.queue("root.a.x").configuredMaximum()).isEqualTo(gb(12, 12));
      assertThat(t.queue("root.a.y").maximum()).isEqualTo(gb(4, 4));
      // Capacities are relative to a: 6 of 8 GB, and 0.75 x a's 0.25 of the cluster.
      assertThat(t.queue("root.a.x").capacity()).isEqualTo(0.75f);
      assertThat(t.queue("root.a.x").absoluteCapacity()).isEqualTo(0.1875f);
      // b has no maximum and a parent without one: the cluster.
      assertThat(t.queue("root.b").maximum()).isEqualTo(gb(32, 32));
    }

    @Test
    void aMaximumAboveTheParentsOrBelowTheCapacityIsRefused() {
      CapacityQueueSpec tooBig = root(
          parent(queue("root.a", gb(8, 8)).maximumCapacity(QueueCapacity.absolute(gb(12, 12))),
              queue("root.a.x", gb(8, 8)).maximumCapacity(QueueCapacity.absolute(gb(16, 16)))));
      assertThatThrownBy(() -> CapacityTree.compute(tooBig, gb(32, 32), settings(ResourceMath.DEFAULT)))
          .hasMessageContaining("root.a.x").hasMessageContaining("above the maximum");
      CapacityQueueSpec inverted = root(queue("root.a", gb(8, 8)).maximumCapacity(QueueCapacity.absolute(gb(4, 4))));
      assertThatThrownBy(() -> CapacityTree.compute(inverted, gb(32, 32), settings(ResourceMath.DEFAULT)))
          .hasMessageContaining("root.a").hasMessageContaining("above its maximum-capacity");
    }
  }

  @Nested
  class Usage {
    private final Resource cluster = gb(100, 100);

    @ParameterizedTest
    @EnumSource(ResourceMath.class)
    void usedCapacityIsUseOverTheGuarantee(ResourceMath math) {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(math));
      // a1 uses 24 GB and 24 vcores against its 12 GB guarantee: twice, and 24 % of the cluster.
      Utilization u = t.utilization("root.a.a1", gb(24, 24));
      assertThat(u.usedCapacity()).isEqualTo(2f);
      assertThat(u.absoluteUsedCapacity()).isEqualTo(0.24f);
    }

    @Test
    void theGuaranteeCountsAsAtLeastOneMinimumAllocation() {
      // A queue guaranteed nothing is measured against 1 GB: 2 GB used is 2.0.
      CapacityQueueSpec spec = root(queue("root.a", 100), queue("root.idle", 0));
      CapacityTree t = CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
      assertThat(t.utilization("root.idle", gb(2, 2)).usedCapacity()).isEqualTo(2f);
      CapacityTree empty = CapacityTree.compute(spec, Resource.NONE, settings(ResourceMath.DEFAULT));
      assertThat(empty.utilization("root.a", gb(2, 2))).isEqualTo(new Utilization(0f, 0f));
    }

    @Test
    void parentsUseWhatTheirChildrenUse() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      Map<String, Resource> used = t.rollUp(Map.of("root.a.a1", gb(24, 24), "root.b.b1", gb(60, 60)));
      assertThat(used).containsEntry("root.a", gb(24, 24)).containsEntry("root.b", gb(60, 60))
          .containsEntry("root", gb(84, 84)).containsEntry("root.c", Resource.NONE);
      assertThatThrownBy(() -> t.rollUp(Map.of("root.a", gb(1, 1)))).hasMessageContaining("not a leaf");
    }

    @Test
    void theCurrentLimitIsWhatTheAncestorsLeave() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DOMINANT));
      // Nothing used: a2 may grow to its own maximum, 30 GB.
      assertThat(t.currentLimit("root.a.a2", t.rollUp(Map.of()))).isEqualTo(gb(30, 30));
      // a1 uses 24 GB and b1 60 GB. From the root: 100 GB less the 84 used, plus a's 24: a may reach
      // 40 GB (below its 60 GB maximum). Less a's 24, plus a2's nothing: 16 GB for a2, below its 30.
      Map<String, Resource> used = t.rollUp(Map.of("root.a.a1", gb(24, 24), "root.b.b1", gb(60, 60)));
      assertThat(t.currentLimit("root.a.a2", used)).isEqualTo(gb(16, 16));
      // a1 itself: the same 40 GB for a, less 24, plus its own 24.
      assertThat(t.currentLimit("root.a.a1", used)).isEqualTo(gb(40, 40));
    }

    @Test
    void theDefaultCalculatorsLimitsCarryOneVcore() {
      CapacityTree t = CapacityTree.compute(seedTree(), cluster, settings(ResourceMath.DEFAULT));
      Map<String, Resource> used = t.rollUp(Map.of("root.a.a1", gb(24, 24), "root.b.b1", gb(60, 60)));
      assertThat(t.currentLimit("root.a.a2", used)).isEqualTo(mb(16384, 1));
    }
  }

  @Nested
  class Inheritance {
    @Test
    void aStoppedParentStopsItsChildren() {
      CapacityQueueSpec spec = root(
          parent(queue("root.a", 50).state(CapacityQueueState.STOPPED), queue("root.a.x", 100)),
          queue("root.b", 50));
      CapacityTree t = CapacityTree.compute(spec, gb(10, 10), settings(ResourceMath.DEFAULT));
      assertThat(t.queue("root.a.x").state()).isEqualTo(CapacityQueueState.STOPPED);
      assertThat(t.queue("root.b").state()).isEqualTo(CapacityQueueState.RUNNING);
    }

    @Test
    void theMaximumAllocationIsInheritedAndMayNotExceedTheSchedulers() {
      CapacityQueueSpec spec = root(
          parent(queue("root.a", 50).maximumAllocation(mb(4096, 2)), queue("root.a.x", 100)),
          queue("root.b", 50));
      CapacityTree t = CapacityTree.compute(spec, gb(10, 10), settings(ResourceMath.DEFAULT));
      assertThat(t.queue("root.a.x").maximumAllocation()).isEqualTo(mb(4096, 2));
      assertThat(t.queue("root.b").maximumAllocation()).isEqualTo(mb(8192, 4));
      CapacityQueueSpec tooLarge = root(queue("root.a", 100).maximumAllocation(mb(16384, 2)));
      assertThatThrownBy(() -> CapacityTree.compute(tooLarge, gb(10, 10), settings(ResourceMath.DEFAULT)))
          .hasMessageContaining("root.a: maximum-allocation <memory:16384, vCores:2>")
          .hasMessageContaining("<memory:8192, vCores:4>");
    }
  }

  /** Trees Hadoop refuses cannot be built. */
  @Nested
  class Refusals {
    @Test
    void childrenMustAddUpToAHundredPercent() {
      assertThatThrownBy(() -> root(queue("root.a", 60), queue("root.b", 30)))
          .hasMessageContaining("children of root add up to 90");
      // Within Hadoop's 0.05 % tolerance is fine; and 33.3 + 33.3 + 33.4 adds up.
      root(queue("root.a", 33.3f), queue("root.b", 33.3f), queue("root.c", 33.4f));
      // Children of a 0 % queue may add up to 0; of any other queue they may not.
      root(queue("root.a", 100), parent(queue("root.z", 0), queue("root.z.x", 0)));
      assertThatThrownBy(() -> root(parent(queue("root.a", 100), queue("root.a.x", 0))))
          .hasMessageContaining("children of root.a add up to 0");
      assertThatThrownBy(() -> root(queue("root.a", 100), parent(queue("root.z", 0), queue("root.z.x", 100))))
          .hasMessageContaining("children of root.z add up to 100");
    }

    @Test
    void percentagesAndAbsoluteResourcesDoNotMix() {
      assertThatThrownBy(() -> root(queue("root.a", 50), queue("root.b", gb(1, 1))))
          .hasMessageContaining("mix percentages and absolute resources");
      assertThatThrownBy(() -> root(parent(queue("root.a", gb(4, 4)), queue("root.a.x", 100))))
          .hasMessageContaining("root.a and its children");
      assertThatThrownBy(() -> queue("root.a", 50).maximumCapacity(QueueCapacity.absolute(gb(4, 4))).build())
          .hasMessageContaining("same form as capacity");
    }

    @Test
    void leavesAndParentsTakeTheirOwnOrderingPolicies() {
      assertThatThrownBy(() -> queue("root.a", 100).orderingPolicy(OrderingPolicy.PRIORITY_UTILIZATION).build())
          .hasMessageContaining("priority-utilization is for parent queues");
      assertThat(OrderingPolicy.fromConfig("fair")).isEqualTo(OrderingPolicy.FAIR);
      assertThatThrownBy(() -> OrderingPolicy.fromConfig("lifo")).hasMessageContaining("'lifo'");
    }

    @Test
    void userWeightsAreBoundByTheMinimumUserLimit() {
      // With minimum-user-limit-percent 50 at most 2 users share the queue: a weight above 2 is refused.
      queue("root.a", 100).minimumUserLimitPercent(50).userWeights(Map.of("alice", 2f)).build();
      assertThatThrownBy(() -> queue("root.a", 100).minimumUserLimitPercent(50)
          .userWeights(Map.of("alice", 2.5f)).build())
          .hasMessageContaining("user-settings.alice.weight 2.5");
    }

    @Test
    void pathsMustNestUnderTheirParents() {
      assertThatThrownBy(() -> root(queue("root.a.b", 100))).hasMessageContaining("root.a.b cannot be a child of root");
      assertThatThrownBy(() -> CapacityTree.compute(queue("root.a", 100).build(), gb(1, 1),
          settings(ResourceMath.DEFAULT))).hasMessageContaining("not a root queue");
      assertThatThrownBy(() -> CapacityTree.compute(seedTree(), gb(1, 1), settings(ResourceMath.DEFAULT))
          .queue("root.x")).hasMessageContaining("no queue root.x");
    }
  }
}
