package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityCluster.GB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of the capacity policy's assignment over random queue trees, clusters, users and asks,
 * one placement at a time until nothing more is placed.
 */
class CapacityAssignerPropertiesTest {
  private static final List<String> USERS = List.of("alice", "bob", "carol");

  /** A configuration, the cluster it runs on, and the applications' asks. */
  record World(String hocon, List<Resource> nodes, List<AppAsk> apps) {
    @Override
    public String toString() {
      return hocon + "\nnodes " + nodes + "\napps " + apps;
    }
  }

  record AppAsk(String leaf, String user, Resource size, int count) {}

  @Provide
  Arbitrary<World> worlds() {
    return Arbitraries.longs().map(seed -> {
      Random r = new Random(seed);
      List<String> leaves = new ArrayList<>();
      StringBuilder hocon = new StringBuilder(r.nextBoolean() ? "resource-calculator = dominant\n" : "");
      hocon.append("queues {").append(children(r, "", 1, leaves)).append("}");
      List<Resource> nodes = new ArrayList<>();
      for (int i = 0, n = 1 + r.nextInt(6); i < n; i++) nodes.add(new Resource(GB * (4 + r.nextInt(13)), 4 + r.nextInt(13)));
      List<AppAsk> apps = new ArrayList<>();
      for (int i = 0, n = 1 + r.nextInt(8); i < n; i++) {
        apps.add(new AppAsk(leaves.get(r.nextInt(leaves.size())), USERS.get(r.nextInt(USERS.size())),
            new Resource(GB * (1 + r.nextInt(4)), 1 + r.nextInt(2)), 1 + r.nextInt(12)));
      }
      return new World(hocon.toString(), nodes, apps);
    });
  }

  /** Children of a queue whose capacities, in tenths of a percent, add up to 100 %. */
  private static String children(Random r, String parent, int depth, List<String> leaves) {
    StringBuilder out = new StringBuilder();
    int n = 1 + r.nextInt(3);
    int left = 1000;
    for (int i = 0; i < n; i++) {
      int tenths = i == n - 1 ? left : r.nextInt(left + 1);
      left -= tenths;
      float capacity = tenths / 10f;
      String name = "q" + depth + i;
      String path = parent.isEmpty() ? name : parent + "." + name;
      out.append(name).append(" { capacity = ").append(capacity);
      if (r.nextBoolean()) out.append(", maximum-capacity = ").append(Math.min(100f, capacity + r.nextInt(101)));
      if (depth < 3 && capacity > 0 && r.nextInt(3) == 0) {
        out.append(", queues { ").append(children(r, path, depth + 1, leaves)).append(" }");
      } else {
        leaves.add(path);
        out.append(", minimum-user-limit-percent = ").append(new int[] {100, 50, 25}[r.nextInt(3)]);
        out.append(", user-limit-factor = ").append(new float[] {1f, 2f, -1f, 0.5f}[r.nextInt(4)]);
        if (r.nextBoolean()) out.append(", ordering-policy = fair");
      }
      out.append(" }\n");
    }
    return out.toString();
  }

  /** Runs the world one placement at a time, checking each placement and each state it leaves. */
  private static void run(World w, PlacementCheck check) {
    CapacitySchedulerConfig config = CapacityCluster.config(w.hocon());
    CapacitySpecs specs = CapacitySpecs.of(config);
    CapacityCluster c = new CapacityCluster(config);
    for (int i = 0; i < w.nodes().size(); i++) c.node("n" + i, w.nodes().get(i).memory(), w.nodes().get(i).vCores());
    for (int i = 0; i < w.apps().size(); i++) {
      AppAsk a = w.apps().get(i);
      c.submit("app-" + i, a.leaf(), a.user());
      c.ask("app-" + i, a.size(), a.count());
    }
    for (int step = 0; step < 10_000; step++) {
      CapacityTree tree = CapacityTree.compute(specs.root(), c.capacity(), specs.settings());
      Map<String, Resource> usersBefore = userUsage(c);
      Map<String, CapacityReservation> reservedBefore = c.policy.nodeReservations();
      Map<String, Resource> leafLiveBefore = new HashMap<>();
      c.allApps().values().forEach(a -> leafLiveBefore.merge(a.queue, a.used(), Resource::plus));
      AllocationPlan plan = c.pass(1);
      Map<String, CapacityReservation> reservedAfter = c.policy.nodeReservations();
      if (plan.isEmpty() && reservedAfter.equals(reservedBefore)) return;
      // Reservations made in the step came before its one placement, in this order.
      List<CapacityReservation> held = new ArrayList<>(reservedBefore.values());
      Map<String, Resource> users = new LinkedHashMap<>(usersBefore);
      for (CapacityReservation r : reservedAfter.values()) {
        if (reservedBefore.containsValue(r)) continue;
        held.add(r);
        check.reserved(tree, c, r, users, held, leafLiveBefore);
        users.merge(r.queue() + "/" + r.user(), r.size(), Resource::plus);
      }
      usersBefore = users;
      if (plan.isEmpty()) continue;
      Assignment placed = plan.assignments().get(0);
      CapacityReservation served = reservedBefore.get(placed.nodeId());
      boolean fromReservation = served != null && served.appId().equals(placed.appId());
      if (!fromReservation) {
        // Placed by giving up one of its reservations (continue-looking): what the application
        // held reserved is what its user could give up.
        Resource appReserved = Resource.NONE;
        for (CapacityReservation r : held) if (r.appId().equals(placed.appId())) appReserved = appReserved.plus(r.size());
        boolean gaveUp = held.stream().anyMatch(r -> r.appId().equals(placed.appId()) && !reservedAfter.containsValue(r));
        if (gaveUp) {
          String key = c.app(placed.appId()).queue + "/" + c.app(placed.appId()).user;
          usersBefore.merge(key, Resource.NONE.minus(appReserved), Resource::plus);
        }
      }
      check.check(tree, c, placed, usersBefore, fromReservation);
    }
    throw new AssertionError("never settled");
  }

  interface PlacementCheck {
    /**
     * @param fromReservation the container was placed on a node reserved for it, where its queue
     *     and user already counted it
     */
    void check(CapacityTree before, CapacityCluster after, Assignment placed, Map<String, Resource> userUsageBefore,
        boolean fromReservation);

    /** A node was reserved in the step; by default nothing more is checked. */
    default void reserved(CapacityTree before, CapacityCluster after, CapacityReservation r,
        Map<String, Resource> userUsageBefore, List<CapacityReservation> reservedSoFar,
        Map<String, Resource> leafLiveBefore) {}
  }

  /** By leaf and user: "leaf/user" to what the user's applications there hold, reserved nodes included. */
  private static Map<String, Resource> userUsage(CapacityCluster c) {
    Map<String, Resource> out = new LinkedHashMap<>();
    c.allApps().values().forEach(a -> out.merge(a.queue + "/" + a.user, a.used(), Resource::plus));
    c.policy.nodeReservations().values().forEach(r -> out.merge(r.queue() + "/" + r.user(), r.size(), Resource::plus));
    return out;
  }

  /**
   * Hadoop's guarantee, which this mirrors: a queue at or above its maximum is never given a
   * container or a reserved node (its use counting what its reserved nodes hold), and a leaf never
   * ends above its own maximum. Under the default calculator no queue ever ends above its maximum.
   * Under the dominant calculator a parent may: a leaf's limit is the smaller by dominant share of
   * its own maximum and what its parents leave it, so a leaf whose own maximum is the smaller can
   * take memory its parent no longer has (see
   * {@code CapacityAssignmentTest.ADominantParentPassesItsMaximumMemory}). A container placed on a
   * node reserved for it was checked when the node was reserved.
   */
  @Property(tries = 200)
  void noQueueAtItsMaximumIsGivenAContainerAndNoLeafGoesAboveIt(@ForAll("worlds") World w) {
    run(w, new PlacementCheck() {
      @Override
      public void check(CapacityTree tree, CapacityCluster c, Assignment placed, Map<String, Resource> users,
          boolean fromReservation) {
        ResourceMath rc = tree.resourceMath();
        Map<String, Resource> leafUsed = new HashMap<>();
        c.allApps().values().forEach(a -> leafUsed.merge(a.queue, a.used(), Resource::plus));
        Map<String, Resource> after = tree.rollUp(leafUsed);
        String leaf = c.app(placed.appId()).queue;
        if (!fromReservation) belowMaximum(tree, leaf, after, placed.capability());
        assertThat(rc.greaterThan(tree.cluster(), after.get(leaf), tree.queue(leaf).maximum()))
            .as("%s uses %s, its maximum is %s", leaf, after.get(leaf), tree.queue(leaf).maximum()).isFalse();
        if (rc != ResourceMath.DEFAULT) return;
        after.forEach((queue, used) -> assertThat(rc.greaterThan(tree.cluster(), used, tree.queue(queue).maximum()))
            .as("%s uses %s, its maximum is %s", queue, used, tree.queue(queue).maximum()).isFalse());
      }

      @Override
      public void reserved(CapacityTree tree, CapacityCluster c, CapacityReservation r, Map<String, Resource> users,
          List<CapacityReservation> reservedSoFar, Map<String, Resource> leafLiveBefore) {
        Map<String, Resource> leafUsed = new HashMap<>(leafLiveBefore);
        reservedSoFar.forEach(x -> leafUsed.merge(x.queue(), x.size(), Resource::plus));
        belowMaximum(tree, r.queue(), tree.rollUp(leafUsed), r.size());
      }
    });
  }

  /** Every queue from the leaf up was below its maximum before {@code given} was added to {@code after}. */
  private static void belowMaximum(CapacityTree tree, String leaf, Map<String, Resource> after, Resource given) {
    for (String queue : tree.lineage(leaf)) {
      Resource before = after.get(queue).minus(given);
      assertThat(tree.resourceMath().lessThan(tree.cluster(), before, tree.queue(queue).maximum()))
          .as("%s was given %s holding %s, its maximum is %s", queue, given, before, tree.queue(queue).maximum())
          .isTrue();
    }
  }

  /**
   * A user above its limit (its use counting what its reserved nodes hold) is given no container
   * and no reserved node; a container placed on a node reserved for it was checked when reserved,
   * and one placed by giving up a reservation is checked as Hadoop's continue-looking checks it,
   * without what the application held reserved.
   */
  @Property(tries = 200)
  void noUserIsGivenAContainerWhileAboveItsLimit(@ForAll("worlds") World w) {
    run(w, new PlacementCheck() {
      @Override
      public void check(CapacityTree tree, CapacityCluster c, Assignment placed, Map<String, Resource> usersBefore,
          boolean fromReservation) {
        if (!fromReservation) withinUserLimit(tree, c, placed.appId(), usersBefore);
      }

      @Override
      public void reserved(CapacityTree tree, CapacityCluster c, CapacityReservation r, Map<String, Resource> users,
          List<CapacityReservation> reservedSoFar, Map<String, Resource> leafLiveBefore) {
        withinUserLimit(tree, c, r.appId(), users);
      }
    });
  }

  private static void withinUserLimit(CapacityTree tree, CapacityCluster c, String appId,
      Map<String, Resource> usersBefore) {
    CapacityCluster.App app = c.app(appId);
    List<UserUsage> users = new ArrayList<>();
    usersBefore.forEach((key, used) -> {
      String[] leafUser = key.split("/");
      if (!leafUser[0].equals(app.queue)) return;
      boolean asking = c.allApps().values().stream().anyMatch(a -> a.queue.equals(app.queue)
          && a.user.equals(leafUser[1]) && (!a.asks.isEmpty() || a.appId.equals(appId)));
      users.add(new UserUsage(leafUser[1], used, asking));
    });
    UserLimits.Result limits = UserLimits.compute(tree, app.queue, users, UserLimits.Mode.ACTIVE_USERS);
    Resource before = usersBefore.get(app.queue + "/" + app.user);
    assertThat(tree.resourceMath().greaterThan(tree.cluster(), before, UserLimits.limitFor(tree, limits, app.user)))
        .as("%s in %s held %s against %s", app.user, app.queue, before, limits.reason()).isFalse();
  }

  @Property(tries = 200)
  void noNodeIsOverCommittedAndNoApplicationGetsMoreThanItAsked(@ForAll("worlds") World w) {
    run(w, (tree, c, placed, users, fromReservation) -> {
      // Under the default calculator a node is full when its memory is: vcores are not counted.
      for (NodeView n : c.usableNodes()) {
        assertThat(tree.resourceMath().fitsIn(n.allocated(), n.capacity())).as(n.nodeId()).isTrue();
      }
      int i = Integer.parseInt(placed.appId().substring("app-".length()));
      AppAsk asked = w.apps().get(i);
      CapacityCluster.App app = c.app(placed.appId());
      assertThat(app.containers).hasSizeLessThanOrEqualTo(asked.count());
      int left = app.asks.stream().filter(Ask::isAny).mapToInt(Ask::count).sum();
      assertThat(app.containers.size() + left).isEqualTo(asked.count());
    });
  }
}
