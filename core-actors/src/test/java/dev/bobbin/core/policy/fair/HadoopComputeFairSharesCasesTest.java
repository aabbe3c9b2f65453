package dev.bobbin.core.policy.fair;

import static dev.bobbin.core.policy.fair.HadoopShareFixtures.fair;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.hadoopQueue;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.root;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.runningIn;
import static dev.bobbin.core.policy.fair.HadoopShareFixtures.steady;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The cases of Hadoop's {@code TestComputeFairShares}, each a flat list of schedulables shared by
 * {@code ComputeFairShares}, put to our calculator as queues under a root that holds the cluster.
 * Every queue runs an application, so the instantaneous shares split among all of them, as
 * Hadoop's test schedulables (which have no notion of being inactive) do; the steady shares split
 * the same way. Both must be the numbers Hadoop's test asserts.
 *
 * <p>Hadoop's test schedulables carry a max of {@code Integer.MAX_VALUE} MB unless the case sets
 * one, and the cluster {@code Resources.createResource(mb)} has one vcore; the queues here carry
 * the same.
 */
class HadoopComputeFairSharesCasesTest {
  private static final long GIGA = 1000L * 1000L * 1000L;
  private static final int INT_MAX = Integer.MAX_VALUE;

  @Test
  void fourEqualQueuesSplitFortyEvenly() {
    assertMemoryShares(40, List.of(terms(1, 0, INT_MAX), terms(1, 0, INT_MAX), terms(1, 0, INT_MAX),
        terms(1, 0, INT_MAX)), 10, 10, 10, 10);
  }

  @Test
  void lowMaxSharesHandTheRestToTheOthers() {
    // 3 and 11 are capped; 13 and 13 share the 26 left.
    assertMemoryShares(40, List.of(terms(1, 0, 100), terms(1, 0, 50), terms(1, 0, 11), terms(1, 0, 3)),
        13, 13, 11, 3);
  }

  @Test
  void minSharesThatFillTheClusterAreAllThereIs() {
    // 20 + 18 + 0 + 2 = 40: the search settles at R = 0 and every queue gets its min.
    assertMemoryShares(40, List.of(terms(1, 20, INT_MAX), terms(1, 18, INT_MAX), terms(1, 0, INT_MAX),
        terms(1, 2, INT_MAX)), 20, 18, 0, 2);
  }

  @Test
  void sharesFollowTheWeights() {
    // Weights 2 : 1 : 1 : 0.5 of 45, so R = 10.
    assertMemoryShares(45, List.of(terms(2, 0, INT_MAX), terms(1, 0, INT_MAX), terms(1, 0, INT_MAX),
        terms(0.5, 0, INT_MAX)), 20, 10, 10, 5);
  }

  @Test
  void weightedSharesStopAtTheirMaxes() {
    // The first stops at 10 and the second at 11; the last two split 24 by 1 : 0.5.
    assertMemoryShares(45, List.of(terms(2, 0, 10), terms(1, 0, 11), terms(1, 0, 30), terms(0.5, 0, 20)),
        10, 11, 16, 8);
  }

  @Test
  void weightedSharesRiseToTheirMins() {
    // At R = 5 the weight-2 queue would get 10 and the weight-0.5 one 2.5; their mins of 20 and 15
    // count instead, which leaves 10 for the two weight-1 queues.
    assertMemoryShares(45, List.of(terms(2, 20, INT_MAX), terms(1, 0, INT_MAX), terms(1, 5, INT_MAX),
        terms(0.5, 15, INT_MAX)), 20, 5, 5, 15);
  }

  @Test
  void largeClustersSplitExactly() {
    long fourGiga = 4 * GIGA;
    assertMemoryShares(4 * fourGiga, List.of(terms(1, 0, fourGiga), terms(1, 0, fourGiga), terms(1, 0, fourGiga),
        terms(1, 0, fourGiga)), fourGiga, fourGiga, fourGiga, fourGiga);
  }

  @Test
  void aMinOfLongMaxValueIsHandedOutWithoutOverflow() {
    long fourGiga = 4 * GIGA;
    assertMemoryShares(4 * fourGiga, List.of(terms(1, Long.MAX_VALUE, Long.MAX_VALUE), terms(1, fourGiga, fourGiga)),
        Long.MAX_VALUE, fourGiga);
  }

  @Test
  void anUnboundedMaxDoesNotOverflowTheSearch() {
    assertMemoryShares(2 * GIGA, List.of(terms(1, 0, GIGA), terms(1, 0, Long.MAX_VALUE)), GIGA, GIGA);
  }

  @Test
  void fixedSharesBeyondTheClusterLeaveNothingForTheRest() {
    // Two weight-0 queues get their mins, together more than a long holds; the weighted queue gets 0.
    long almostMax = Long.MAX_VALUE - 1;
    assertMemoryShares(1000, List.of(terms(0, GIGA, GIGA), terms(0, almostMax, Long.MAX_VALUE), terms(1, 0, GIGA)),
        GIGA, almostMax, 0);
  }

  @Test
  void sharingAmongNoOneChangesNothing() {
    // Hadoop shares among an empty list without complaint. Here that list is a leaf's runnable
    // applications: there are none, so nothing is split, and the leaf is inactive.
    QueueSpec root = root(hadoopQueue("root.a").build());
    FairShares s = FairShareCalculator.compute(root, new Resource(40, 1), List.of());
    assertThat(s.apps()).isEmpty();
    assertThat(steady(s, "root.a")).isEqualTo(new Resource(40, 0));
    assertThat(fair(s, "root.a")).isEqualTo(Resource.NONE);
  }

  @Test
  void vcoresAreSharedLikeMemory() {
    // The weighted-min case in vcores, under DRF: mins of 20, 0, 5 and 15 vcores of 45.
    List<Function<String, QueueSpec>> queues = List.of(
        vcoreTerms(2, 20), vcoreTerms(1, 0), vcoreTerms(1, 5), vcoreTerms(0.5, 15));
    assertShares(new Resource(0, 45), FairPolicyKind.DRF, queues, Resource::vCores, 20, 5, 5, 15);
  }

  /** A Hadoop test schedulable as a queue: weight, min and max in MB (vcores left unbounded). */
  private static Function<String, QueueSpec> terms(double weight, long minMb, long maxMb) {
    return path -> hadoopQueue(path).weight(weight).min(minMb, 0).max(maxMb, INT_MAX).build();
  }

  private static Function<String, QueueSpec> vcoreTerms(double weight, int minVcores) {
    return path -> hadoopQueue(path).weight(weight).min(0, minVcores).max(INT_MAX, INT_MAX).build();
  }

  private static void assertMemoryShares(long clusterMb, List<Function<String, QueueSpec>> queues, long... expected) {
    assertShares(new Resource(clusterMb, 1), FairPolicyKind.FAIR, queues, Resource::memory, expected);
  }

  private static void assertShares(Resource cluster, FairPolicyKind policy, List<Function<String, QueueSpec>> queues,
      ToLongFunction<Resource> type, long... expected) {
    List<QueueSpec> children = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      String path = "root.s" + (i + 1);
      paths.add(path);
      children.add(queues.get(i).apply(path));
    }
    FairShares s = FairShareCalculator.compute(
        root(policy, children.toArray(QueueSpec[]::new)), cluster, runningIn(paths.toArray(String[]::new)));
    long[] steadyShares = paths.stream().mapToLong(p -> type.applyAsLong(steady(s, p))).toArray();
    long[] fairShares = paths.stream().mapToLong(p -> type.applyAsLong(fair(s, p))).toArray();
    assertThat(steadyShares).as("steady shares").containsExactly(expected);
    assertThat(fairShares).as("instantaneous shares").containsExactly(expected);
  }
}
