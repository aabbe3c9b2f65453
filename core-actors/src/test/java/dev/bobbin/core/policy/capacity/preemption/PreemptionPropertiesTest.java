package dev.bobbin.core.policy.capacity.preemption;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.ContainerSnapshot;
import dev.bobbin.core.policy.capacity.CapacityQueueSpec;
import dev.bobbin.core.policy.capacity.CapacitySettings;
import dev.bobbin.core.policy.capacity.CapacityTree;
import dev.bobbin.core.policy.capacity.ResourceMath;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Invariants of a preemption round over random trees, workloads, settings and both calculators. */
class PreemptionPropertiesTest {

  /** A random cluster: queues, applications with containers (never more than the cluster), settings. */
  record World(CapacityTree tree, PreemptionRound.Input input, ProportionalPreemptionSettings settings) {
    ResourceMath rc() {
      return tree.resourceMath();
    }

    Resource cluster() {
      return tree.cluster();
    }

    PreemptionRound.Result round() {
      return PreemptionRound.run(input, settings, Map.of(), 0);
    }
  }

  @Provide
  Arbitrary<World> worlds() {
    return Arbitraries.longs().map(PreemptionPropertiesTest::world);
  }

  private static World world(long seed) {
    Random r = new Random(seed);
    ResourceMath math = r.nextBoolean() ? ResourceMath.DEFAULT : ResourceMath.DOMINANT;
    int gb = 8 + r.nextInt(200);
    Resource cluster = new Resource(gb * 1024L, 4 + r.nextInt(gb * 2));
    List<String> leaves = new ArrayList<>();
    CapacityQueueSpec root = tree(r, "root", 0, 100f, false, leaves);
    CapacityTree tree = CapacityTree.compute(root, cluster, CapacitySettings.defaults(math));

    List<AppSnapshot> apps = new ArrayList<>();
    List<CandidateContainer> containers = new ArrayList<>();
    Resource left = cluster;
    int n = 0;
    for (String leaf : leaves) {
      for (int a = r.nextInt(4); a > 0; a--, n++) {
        String appId = Ids.applicationId(7, n);
        String attempt = Ids.attemptId(appId, 1);
        Resource used = Resource.NONE;
        Resource size = new Resource(1024L * (1 + r.nextInt(4)), 1 + r.nextInt(2));
        for (int c = r.nextInt(30); c > 0 && left.fits(size); c--) {
          boolean am = used.equals(Resource.NONE);
          containers.add(new CandidateContainer(new ContainerSnapshot(Ids.containerId(attempt, 0, c), appId,
              "n" + r.nextInt(5) + ":1", size, am, c), r.nextInt(3), 0));
          used = used.plus(size);
          left = left.minus(size);
        }
        Resource pending = r.nextInt(3) == 0 ? Resource.NONE : size.times(r.nextInt(40));
        apps.add(new AppSnapshot(appId, attempt, leaf, r.nextInt(3), n, used, Resource.NONE, pending, size));
      }
    }
    ProportionalPreemptionSettings s = ProportionalPreemptionSettings.HADOOP_DEFAULTS
        .withTotalPreemptionPerRound(new float[] {0.1f, 0.3f, 1f}[r.nextInt(3)])
        .withNaturalTerminationFactor(new double[] {0.2, 0.5, 1.0}[r.nextInt(3)])
        .withMaxIgnoredOverCapacity(new double[] {0, 0.1, 0.3}[r.nextInt(3)])
        .withMaxWaitBeforeKill(Duration.ofSeconds(15));
    return new World(tree, PreemptionRound.Input.of(tree, apps, containers), s);
  }

  /** Percentages in tenths, maxima at least the capacity; some queues with preemption disabled. */
  private static CapacityQueueSpec tree(Random r, String path, int depth, float capacity, boolean disabled,
      List<String> leaves) {
    boolean off = disabled || r.nextInt(8) == 0;
    CapacityQueueSpec.Builder b = CapacityQueueSpec.builder(path).capacity(capacity).disablePreemption(off)
        .priority(r.nextInt(3)).maximumAmResourcePercent(new float[] {0f, 0.1f, 0.5f}[r.nextInt(3)])
        .maximumCapacity(r.nextBoolean() ? -1f : Math.min(100f, capacity + r.nextInt(60)));
    if (depth < 2 && capacity > 0 && (depth == 0 || r.nextInt(3) == 0)) {
      int children = 2 + r.nextInt(3);
      int tenthsLeft = 1000;
      for (int i = 0; i < children; i++) {
        int tenths = i == children - 1 ? tenthsLeft : r.nextInt(tenthsLeft + 1);
        tenthsLeft -= tenths;
        b.child(tree(r, path + ".q" + i, depth + 1, tenths / 10f, off, leaves));
      }
      if (r.nextBoolean()) b.orderingPolicy(dev.bobbin.core.policy.capacity.OrderingPolicy.PRIORITY_UTILIZATION);
    } else {
      leaves.add(path);
      if (r.nextInt(4) == 0) b.orderingPolicy(dev.bobbin.core.policy.capacity.OrderingPolicy.FAIR);
    }
    return b.build();
  }

  @Property(tries = 400)
  void aRoundTakesOnlyFromLeavesAboveTheirGuarantees(@ForAll("worlds") World w) {
    PreemptionRound.Result round = w.round();
    Statistics.label("round").collect(round.selection().victims().isEmpty() ? "takes nothing" : "takes containers");
    Statistics.label("calculator").collect(w.rc());
    for (Victim v : round.selection().victims()) {
      QueueAssignment q = round.ideal().queue(v.queuePath());
      assertThat(w.rc().greaterThan(w.cluster(), q.used(), q.guaranteed()))
          .as("%s taken from %s", v.id(), q.reason()).isTrue();
    }
  }

  @Property(tries = 400)
  void aRoundTakesAtMostItsShareOfTheCluster(@ForAll("worlds") World w) {
    PreemptionRound.Result round = w.round();
    Resource taken = Resource.NONE;
    for (Victim v : round.selection().victims()) taken = taken.plus(v.resource());
    Resource allowed = ResourceMath.multiplyAndRoundDown(w.cluster(), w.settings().totalPreemptionPerRound());
    assertThat(w.rc().fitsIn(taken, allowed)).as("took %s of %s allowed", taken, allowed).isTrue();
  }

  @Property(tries = 400)
  void aQueueWithPreemptionDisabledLosesNothing(@ForAll("worlds") World w) {
    for (Victim v : w.round().selection().victims()) {
      assertThat(w.tree().spec(v.queuePath()).disablePreemption()).as(v.queuePath()).isFalse();
    }
  }

  @Property(tries = 400)
  void sharingNeverGrowsAQueueBeyondItsMaximum(@ForAll("worlds") World w) {
    // A queue keeps what it uses of its guarantee and, with preemption disabled, above it; what it
    // is given on top never takes it past its maximum.
    if (w.rc() != ResourceMath.DEFAULT) return;
    for (QueueAssignment q : w.round().ideal().queues().values()) {
      long bound = Math.max(q.maximum().memory(), q.preemptionDisabled() || hasDisabledBelow(w, q.path())
          ? q.used().memory() : Math.min(q.used().memory(), q.guaranteed().memory()));
      assertThat(q.idealAssignment().memory()).as(q.reason()).isLessThanOrEqualTo(bound);
    }
  }

  @Property(tries = 400)
  void idealAssignmentsUnderTheRootAddUpToAtMostTheCluster(@ForAll("worlds") World w) {
    // Hadoop offers the queues guaranteed nothing what is left after the first part given to the
    // others rather than after all of them, so with such queues the sum can be larger.
    IdealAssignment ideal = w.round().ideal();
    if (ideal.queues().values().stream().anyMatch(q -> !w.rc().greaterThan(w.cluster(), q.guaranteed(), Resource.NONE))) {
      return;
    }
    Resource sum = Resource.NONE;
    for (CapacityQueueSpec c : w.tree().root().children()) sum = sum.plus(ideal.queue(c.path()).idealAssignment());
    if (w.rc() == ResourceMath.DEFAULT) {
      assertThat(sum.memory()).isLessThanOrEqualTo(w.cluster().memory());
    } else {
      assertThat(w.cluster().fits(sum)).as("%s in %s", sum, w.cluster()).isTrue();
    }
  }

  @Property(tries = 200)
  void everyVictimIsMarkedOnceThenKilledAfterTheWait(@ForAll("worlds") World w) {
    PreemptionRound.Result first = w.round();
    Set<String> live = new HashSet<>();
    first.selection().victims().stream().filter(v -> v.kind() != Victim.Kind.RESERVATION).forEach(v -> live.add(v.id()));
    assertThat(first.toMark()).extracting(Victim::id).containsExactlyInAnyOrderElementsOf(live);
    long wait = w.settings().maxWaitBeforeKill().toMillis();
    PreemptionRound.Result later = PreemptionRound.run(w.input(), w.settings(), first.marks(), wait);
    assertThat(later.toMark()).isEmpty();
    assertThat(later.toKill()).extracting(Victim::id).containsExactlyInAnyOrderElementsOf(live);
    assertThat(later.marks()).isEmpty();
    PreemptionRound.Result observed = PreemptionRound.run(w.input(), w.settings().withObserveOnly(true), Map.of(), 0);
    assertThat(observed.toMark()).isEmpty();
    assertThat(observed.selection().victims()).hasSameSizeAs(first.selection().victims());
  }

  private static boolean hasDisabledBelow(World w, String path) {
    return disabledBelow(w.tree().spec(path));
  }

  private static boolean disabledBelow(CapacityQueueSpec q) {
    return q.disablePreemption() || q.children().stream().anyMatch(PreemptionPropertiesTest::disabledBelow);
  }
}
