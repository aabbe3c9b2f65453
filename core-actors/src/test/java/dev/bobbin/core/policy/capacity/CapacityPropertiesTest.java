package dev.bobbin.core.policy.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.ApplicationLimits.ActivationPlan;
import dev.bobbin.core.policy.capacity.ApplicationLimits.ActiveApp;
import dev.bobbin.core.policy.capacity.ApplicationLimits.PendingApp;
import dev.bobbin.core.policy.capacity.QueueOrdering.Candidate;
import dev.bobbin.core.policy.capacity.QueueOrdering.Ranked;
import dev.bobbin.core.policy.capacity.UserLimits.Mode;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Invariants of the capacity mathematics over random trees, clusters and users. */
class CapacityPropertiesTest {

  record World(CapacityTree tree, Random random) {}

  @Provide
  Arbitrary<World> percentageWorlds() {
    return Arbitraries.longs().map(seed -> {
      Random r = new Random(seed);
      ResourceMath math = r.nextBoolean() ? ResourceMath.DEFAULT : ResourceMath.DOMINANT;
      Resource cluster = new Resource(1024L * (1 + r.nextInt(2000)) + r.nextInt(1024), 1 + r.nextInt(2000));
      return new World(CapacityTree.compute(tree(r, "root", 0, 100f), cluster, CapacitySettings.defaults(math)), r);
    });
  }

  private static CapacityQueueSpec tree(Random r, String path, int depth, float capacity) {
    CapacityQueueSpec.Builder b = CapacityQueueSpec.builder(path).capacity(capacity)
        .maximumCapacity(r.nextBoolean() ? -1f : Math.min(100f, capacity + r.nextInt(101)));
    if (depth < 3 && capacity > 0 && (depth == 0 || r.nextInt(3) == 0)) {
      int children = 1 + r.nextInt(5);
      int left = 1000;
      for (int i = 0; i < children; i++) {
        int tenths = i == children - 1 ? left : r.nextInt(left + 1);
        left -= tenths;
        b.child(tree(r, path + ".q" + i, depth + 1, tenths / 10f));
      }
    } else {
      b.minimumUserLimitPercent(new float[] {100f, 50f, 25f, 10f, 33.3f}[r.nextInt(5)]);
    }
    return b.build();
  }

  @Property(tries = 300)
  void childrensAbsoluteCapacitiesAddUpToTheirParents(@ForAll("percentageWorlds") World w) {
    for (QueueCapacities parent : w.tree().queues()) {
      List<CapacityQueueSpec> children = w.tree().spec(parent.path()).children();
      if (children.isEmpty()) continue;
      double sum = children.stream().mapToDouble(c -> w.tree().queue(c.path()).absoluteCapacity()).sum();
      // Hadoop accepts children adding up to 100 % within 0.05 %; floats add their last bits.
      assertThat(sum).as("children of %s", parent.path())
          .isCloseTo(parent.absoluteCapacity(), org.assertj.core.data.Offset.offset(0.0006 * parent.absoluteCapacity() + 1e-6));
    }
  }

  @Property(tries = 300)
  void noQueueIsGuaranteedMoreThanItMayReach(@ForAll("percentageWorlds") World w) {
    for (QueueCapacities q : w.tree().queues()) {
      assertThat(q.absoluteCapacity()).as(q.path()).isLessThanOrEqualTo(q.absoluteMaximumCapacity());
      assertThat(q.maximum().fits(q.guaranteed())).as(q.path()).isTrue();
      assertThat(w.tree().cluster().fits(q.maximum())).as(q.path()).isTrue();
    }
  }

  private static List<String> leaves(CapacityTree t) {
    return t.queues().stream().map(QueueCapacities::path).filter(p -> t.spec(p).isLeaf()).toList();
  }

  /** Users that together hold at most what the queue may hold. */
  private static List<UserUsage> users(Random r, QueueCapacities q, int count) {
    List<UserUsage> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long memory = (long) (r.nextDouble() * q.maximum().memory() / count);
      int vCores = (int) (r.nextDouble() * q.maximum().vCores() / count);
      out.add(new UserUsage("u" + i, new Resource(memory, vCores), r.nextInt(4) > 0));
    }
    return out;
  }

  /**
   * With the default calculator. The dominant one picks the larger candidate by dominant share and
   * then rounds every type up to the minimum allocation, so when a user joins, the newly chosen
   * candidate can round up to a slightly larger dominant share than the old one did: Hadoop's
   * limit is not monotone there, and neither is this one.
   */
  @Property(tries = 500)
  void addingAnActiveUserNeverRaisesTheUserLimit(@ForAll("percentageWorlds") World w) {
    CapacityTree t = w.tree();
    ResourceMath rc = t.resourceMath();
    if (rc != ResourceMath.DEFAULT) return;
    for (String leaf : leaves(t)) {
      List<UserUsage> users = new ArrayList<>(users(w.random(), t.queue(leaf), w.random().nextInt(6)));
      UserLimits.Result first = UserLimits.compute(t, leaf, users, Mode.ACTIVE_USERS);
      Resource before = first.userLimit();
      users.add(new UserUsage("newcomer", Resource.NONE, true));
      UserLimits.Result second = UserLimits.compute(t, leaf, users, Mode.ACTIVE_USERS);
      Resource after = second.userLimit();
      assertThat(rc.lessThanOrEqual(t.cluster(), after, before))
          .as("%s on %s with %s: %s then %s", leaf, t.cluster(), users, first.reason(), second.reason()).isTrue();
    }
  }

  /**
   * Memory, by which the default calculator compares. The dominant calculator caps by dominant
   * share, so a limit with a smaller share of vcores may hold more memory than the maximum, as in
   * Hadoop; the queue's own limit stops the queue there.
   */
  @Property(tries = 300)
  void withFactorMinusOneNoUserLimitIsAboveTheQueuesMaximum(@ForAll("percentageWorlds") World w) {
    CapacityTree base = w.tree();
    if (base.resourceMath() != ResourceMath.DEFAULT) return;
    CapacityQueueSpec root = withFactor(base.root(), -1f);
    CapacityTree t = CapacityTree.compute(root, base.cluster(), base.settings());
    for (String leaf : leaves(t)) {
      if (t.queue(leaf).maximum().memory() < t.settings().minimumAllocation().memory()) continue;
      Resource limit = UserLimits.compute(t, leaf, users(w.random(), t.queue(leaf), 1 + w.random().nextInt(5)),
          Mode.ACTIVE_USERS).userLimit();
      assertThat(limit.memory()).as(leaf).isLessThanOrEqualTo(t.queue(leaf).maximum().memory());
    }
  }

  /**
   * With a factor that keeps capacity x factor within the maximum, the limit stays within the
   * maximum rounded up to the minimum allocation (memory, with the default calculator as above).
   */
  @Property(tries = 300)
  void aFactorWithinTheMaximumKeepsUserLimitsWithinIt(@ForAll("percentageWorlds") World w) {
    CapacityTree base = w.tree();
    if (base.resourceMath() != ResourceMath.DEFAULT) return;
    for (String leaf : leaves(base)) {
      QueueCapacities q = base.queue(leaf);
      Resource step = base.settings().minimumAllocation();
      long capacity = Math.max(q.guaranteed().memory(), step.memory());
      if (capacity > q.maximum().memory()) continue;
      float factor = (float) (q.maximum().memory() / (double) capacity) * (float) w.random().nextDouble();
      if (factor <= 0f) continue;
      CapacityTree t = CapacityTree.compute(withFactor(base.root(), factor), base.cluster(), base.settings());
      Resource limit = UserLimits.compute(t, leaf, users(w.random(), q, 1 + w.random().nextInt(5)),
          Mode.ACTIVE_USERS).userLimit();
      assertThat(limit.memory()).as("%s with factor %s", leaf, factor)
          .isLessThanOrEqualTo(ResourceMath.roundUp(q.maximum().memory(), step.memory()));
    }
  }

  private static CapacityQueueSpec withFactor(CapacityQueueSpec q, float factor) {
    if (q.isLeaf()) return q.toBuilder().userLimitFactor(factor).build();
    return q.toBuilder().children(q.children().stream().map(c -> withFactor(c, factor)).toList()).build();
  }

  @Property(tries = 300)
  void activationNeverTakesARunningQueuePastItsAmLimit(@ForAll("percentageWorlds") World w) {
    CapacityTree t = w.tree();
    Random r = w.random();
    for (String leaf : leaves(t)) {
      Resource limit = t.currentLimit(leaf, t.rollUp(Map.of()));
      List<ActiveApp> active = new ArrayList<>();
      Resource used = Resource.NONE;
      for (int i = 0; i < 1 + r.nextInt(3); i++) {
        ActiveApp a = new ActiveApp("running_" + i, "u" + r.nextInt(3), new Resource(1024L * (1 + r.nextInt(4)), 1), true);
        active.add(a);
        used = used.plus(a.amResource());
      }
      List<PendingApp> pending = new ArrayList<>();
      for (int i = 0; i < r.nextInt(6); i++) {
        pending.add(new PendingApp("waiting_" + i, "u" + r.nextInt(4), r.nextInt(3),
            new Resource(1024L * (1 + r.nextInt(4)), 1)));
      }
      ActivationPlan p = ApplicationLimits.activate(t, leaf, limit, active, pending, null);
      assertThat(p.activations()).hasSize(pending.size());
      Resource amLimit = p.limits().queueLimit();
      if (t.resourceMath().fitsIn(used, amLimit)) {
        assertThat(t.resourceMath().fitsIn(p.amUsed(), amLimit)).as("%s: %s within %s", leaf, p.amUsed(), amLimit)
            .isTrue();
      } else {
        assertThat(p.activated()).as("%s is past its AM limit already", leaf).isEmpty();
      }
    }
  }

  @Provide
  Arbitrary<List<Candidate>> candidates() {
    Arbitrary<Candidate> one = Arbitraries.integers().between(0, 1_000_000).map(seed -> {
      Random r = new Random(seed);
      return new Candidate("q" + seed, r.nextInt(3), r.nextInt(4) == 0 ? 0f : r.nextFloat(),
          r.nextFloat() * 2f, r.nextFloat(), Resource.NONE);
    });
    return one.list().ofMinSize(1).ofMaxSize(12).uniqueElements(Candidate::path);
  }

  @Property(tries = 300)
  void underUtilizationAQueueUnderItsGuaranteeGoesBeforeOneOverIt(@ForAll("candidates") List<Candidate> in) {
    List<Ranked> out = QueueOrdering.order(in, false);
    assertThat(out).extracting(Ranked::candidate).containsExactlyInAnyOrderElementsOf(in);
    for (int i = 0; i < out.size(); i++) {
      for (int j = i + 1; j < out.size(); j++) {
        Candidate first = out.get(i).candidate();
        Candidate later = out.get(j).candidate();
        if (first.absoluteCapacity() > 0 && later.absoluteCapacity() > 0) {
          assertThat(first.usedCapacity()).isLessThanOrEqualTo(later.usedCapacity());
        }
        assertThat(first.absoluteCapacity() == 0f && later.absoluteCapacity() > 0f)
            .as("%s without guarantee before %s", first.path(), later.path()).isFalse();
      }
    }
  }
}
