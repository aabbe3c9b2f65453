package dev.bobbin.core.policy.fair;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.ContainerSnapshot;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.app;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.container;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.leaf;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.node;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.parent;
import static dev.bobbin.core.policy.fair.PreemptionFixtures.res;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.PreemptionPlan.Reservation;
import dev.bobbin.core.policy.fair.Starvation.StarvedApp;
import dev.bobbin.protocol.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

class PreemptionPlannerPropertiesTest {
  private static final PreemptionSettings ANY_LOAD = new PreemptionSettings(true, 0.0, Duration.ofSeconds(15));
  private static final List<String> LEAVES = List.of("root.a.x", "root.a.y", "root.b", "root.c");

  /**
   * A random busy cluster: root -> a -> {a.x, a.y}, b, c, each queue randomly allowing preemption;
   * nodes filled with containers of random applications; random fair shares, requests (some for a
   * host), starved applications, marks and outstanding reservations. Applications' usage is the sum of
   * their containers.
   */
  record Scenario(
      QueueSpec root, Map<String, Boolean> preemptableLeaf, List<NodeView> nodes, List<ContainerSnapshot> containers,
      List<AppSnapshot> apps, Map<String, List<Ask>> asks, FairShares shares, Starvation starvation,
      Set<String> marked, List<Reservation> outstanding) {

    static Scenario random(long seed) {
      Random rnd = new Random(seed);
      boolean rootAllows = rnd.nextInt(8) > 0;
      boolean aAllows = rnd.nextInt(4) > 0;
      boolean bAllows = rnd.nextInt(3) > 0;
      boolean cAllows = rnd.nextInt(4) > 0;
      boolean xAllows = rnd.nextInt(4) > 0;
      QueueSpec root = PreemptionFixtures.parent("root", rootAllows,
          parent("root.a", aAllows,
              leaf("root.a.x", xAllows, null, 0.5, Resource.NONE, null),
              leaf("root.a.y", true, null, 0.5, Resource.NONE, null)),
          leaf("root.b", bAllows, null, 0.5, Resource.NONE, null),
          leaf("root.c", cAllows, null, 0.5, Resource.NONE, null));
      Map<String, Boolean> preemptable = Map.of(
          "root.a.x", rootAllows && aAllows && xAllows, "root.a.y", rootAllows && aAllows,
          "root.b", rootAllows && bAllows, "root.c", rootAllows && cAllows);

      int appCount = 3 + rnd.nextInt(6);
      List<String> appQueues = new ArrayList<>();
      for (int i = 0; i < appCount; i++) appQueues.add(LEAVES.get(rnd.nextInt(LEAVES.size())));

      List<NodeView> nodes = new ArrayList<>();
      List<ContainerSnapshot> containers = new ArrayList<>();
      Map<String, Resource> usage = new HashMap<>();
      int nodeCount = 1 + rnd.nextInt(4);
      int serial = 0;
      for (int n = 0; n < nodeCount; n++) {
        String nodeId = "n" + n;
        Resource capacity = res(4 + rnd.nextInt(13), 4 + rnd.nextInt(9));
        Resource allocated = Resource.NONE;
        int attempts = 4 + rnd.nextInt(12);
        for (int k = 0; k < attempts; k++) {
          Resource r = res(1 + rnd.nextInt(3), rnd.nextInt(5) == 0 ? 2 : 1);
          if (!capacity.fits(allocated.plus(r))) continue;
          String appId = "app" + rnd.nextInt(appCount);
          containers.add(container("c" + serial++, appId, nodeId, r, rnd.nextInt(5) == 0, rnd.nextInt(1000)));
          usage.merge(appId, r, Resource::plus);
          allocated = allocated.plus(r);
        }
        nodes.add(node(nodeId, capacity, allocated));
      }

      List<AppSnapshot> apps = new ArrayList<>();
      Map<String, List<Ask>> asks = new HashMap<>();
      Map<String, Resource> fairShares = new HashMap<>();
      List<StarvedApp> starved = new ArrayList<>();
      for (int i = 0; i < appCount; i++) {
        String appId = "app" + i;
        Resource used = usage.getOrDefault(appId, Resource.NONE);
        Resource ask = rnd.nextInt(6) == 0 ? Resource.NONE : res(1 + rnd.nextInt(4), 1 + rnd.nextInt(2));
        Resource pending = ask.times(rnd.nextInt(4) + (rnd.nextInt(5) == 0 ? 0 : 1));
        apps.add(app(appId, appQueues.get(i), used, pending, pending.equals(Resource.NONE) ? Resource.NONE : ask));
        if (!pending.equals(Resource.NONE)) {
          int count = (int) (pending.memory() / ask.memory());
          List<Ask> appAsks = new ArrayList<>(List.of(Ask.anyOf(ask, count)));
          if (rnd.nextInt(4) == 0) {
            appAsks.add(new Ask(1, "n" + rnd.nextInt(nodeCount) + ".host", ask, 1 + rnd.nextInt(count),
                rnd.nextBoolean(), -1, false));
          }
          asks.put(appId, List.copyOf(appAsks));
        }
        long shareCeiling = rnd.nextInt(4) == 0 ? used.memory() + 4096 : used.memory() * 3 / 4;
        fairShares.put(appId, Resource.of((long) (rnd.nextDouble() * shareCeiling), rnd.nextInt(used.vCores() + 3)));
        if (rnd.nextInt(4) == 0 && !ask.equals(Resource.NONE)) {
          Resource fair = rnd.nextBoolean() ? Resource.of(rnd.nextInt(8 * 1024), rnd.nextInt(4)) : Resource.NONE;
          Resource min = rnd.nextBoolean() ? Resource.of(rnd.nextInt(8 * 1024), rnd.nextInt(4)) : Resource.NONE;
          starved.add(new StarvedApp(appId, appQueues.get(i), fair, min, fairShares.get(appId), used,
              used.plus(pending), 0.5, Duration.ZERO, 0));
        }
      }
      Set<String> marked = containers.stream().filter(c -> rnd.nextInt(8) == 0)
          .map(ContainerSnapshot::containerId).collect(Collectors.toSet());
      List<Reservation> outstanding = new ArrayList<>();
      if (!starved.isEmpty() && rnd.nextInt(3) == 0) {
        outstanding.add(new Reservation("n" + rnd.nextInt(nodeCount), starved.get(0).appId(), res(1 + rnd.nextInt(3), 1)));
      }
      return new Scenario(root, preemptable, List.copyOf(nodes), List.copyOf(containers), List.copyOf(apps),
          Map.copyOf(asks), new FairShares(Map.of(), fairShares),
          new Starvation(starved, List.of(), StarvationState.startingAt(0)), Set.copyOf(marked),
          List.copyOf(outstanding));
    }

    Resource cluster() {
      Resource total = Resource.NONE;
      for (NodeView n : nodes) total = total.plus(n.capacity());
      return total;
    }

    PreemptionPlan plan() {
      return PreemptionPlanner.plan(ANY_LOAD, root, shares, cluster(), apps, asks, nodes, containers, starvation,
          marked, outstanding);
    }

    ContainerSnapshot containerById(String id) {
      return containers.stream().filter(c -> c.containerId().equals(id)).findFirst().orElseThrow();
    }

    AppSnapshot appById(String id) {
      return apps.stream().filter(a -> a.appId().equals(id)).findFirst().orElseThrow();
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    return Arbitraries.longs().map(Scenario::random);
  }

  @Property(tries = 500)
  void noApplicationIsPreemptedBelowItsFairShare(@ForAll("scenarios") Scenario s) {
    PreemptionPlan plan = s.plan();
    // Every queue here is FAIR, which compares memory: what a victim keeps, after the marked containers
    // and everything this plan takes, is at least its fair share's memory.
    Map<String, Resource> left = new HashMap<>();
    s.apps().forEach(a -> left.put(a.appId(), a.usage()));
    s.containers().stream().filter(c -> s.marked().contains(c.containerId()))
        .forEach(c -> left.merge(c.appId(), c.resource(), Resource::minus));
    plan.containerIds().forEach(id -> left.merge(s.containerById(id).appId(), s.containerById(id).resource(), Resource::minus));
    for (String id : plan.containerIds()) {
      String victim = s.containerById(id).appId();
      assertThat(left.get(victim).memory()).as("%s keeps %s", victim, left.get(victim))
          .isGreaterThanOrEqualTo(s.shares().apps().get(victim).memory());
    }
    plan.decisions().forEach(d -> d.details().victims().forEach(v ->
        assertThat(v.usageAfter().memory()).isGreaterThanOrEqualTo(v.fairShare().memory())));
  }

  @Property(tries = 500)
  void nothingIsTakenFromAQueueThatDisallowsPreemption(@ForAll("scenarios") Scenario s) {
    for (String id : s.plan().containerIds()) {
      String queue = s.appById(s.containerById(id).appId()).queuePath();
      assertThat(s.preemptableLeaf().get(queue)).as("%s from %s", id, queue).isTrue();
    }
  }

  @Property(tries = 500)
  void noContainerIsChosenTwiceNorOneAlreadyMarked(@ForAll("scenarios") Scenario s) {
    List<String> ids = s.plan().containerIds();
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(ids).noneMatch(s.marked()::contains);
  }

  @Property(tries = 500)
  void noApplicationIsPlannedMoreThanItsStarvationPaysForInWholeContainers(@ForAll("scenarios") Scenario s) {
    Map<String, Long> asked = new HashMap<>();
    for (PreemptionDecision d : s.plan().decisions()) asked.merge(d.starvedAppId(), d.details().ask().memory(), Long::sum);
    for (StarvedApp starved : s.starvation().apps()) {
      assertThat(asked.getOrDefault(starved.appId(), 0L)).as(starved.appId())
          .isLessThanOrEqualTo(starved.starvedFor().memory());
    }
  }

  @Property(tries = 500)
  void everyDecisionMakesRoomForTheStarvedRequestOnItsNode(@ForAll("scenarios") Scenario s) {
    // Replay the decisions as Hadoop accounts for them: what a node has unallocated, less what is held
    // there for starved applications, plus what the decision frees, holds the request's container; what
    // it frees is then held too.
    Map<String, Resource> held = new HashMap<>();
    s.outstanding().forEach(r -> held.merge(r.nodeId(), r.amount(), Resource::plus));
    List<PreemptionDecision> decisions = s.plan().decisions();
    // Keeps the generator honest: a fair part of the scenarios must actually preempt something.
    Statistics.label("decisions").collect(decisions.isEmpty() ? "none" : decisions.size() == 1 ? "one" : "several");
    Statistics.label("decisions").coverage(c -> c.check("none").percentage(p -> p < 90));
    for (PreemptionDecision d : decisions) {
      NodeView node = s.nodes().stream().filter(n -> n.nodeId().equals(d.nodeId())).findFirst().orElseThrow();
      Resource freed = d.containerIds().stream().map(s::containerById).map(ContainerSnapshot::resource)
          .reduce(Resource.NONE, Resource::plus);
      assertThat(d.containerIds()).isNotEmpty().allMatch(id -> s.containerById(id).nodeId().equals(d.nodeId()));
      assertThat(d.freed()).isEqualTo(freed);
      assertThat(s.asks().get(d.starvedAppId())).extracting(Ask::capability).contains(d.details().ask());
      Resource room = StarvationMath.shortfall(StarvationMath.nonNegative(node.free()),
          held.getOrDefault(d.nodeId(), Resource.NONE)).plus(freed);
      assertThat(room.fits(d.details().ask())).as("%s on %s: room %s for %s", d.starvedAppId(), d.nodeId(), room,
          d.details().ask()).isTrue();
      held.merge(d.nodeId(), freed, Resource::plus);
    }
  }

  @Property(tries = 200)
  void planningIsRepeatableAndLeavesTheScenarioAlone(@ForAll("scenarios") Scenario s) {
    List<NodeView> nodes = new ArrayList<>(s.nodes());
    List<ContainerSnapshot> containers = new ArrayList<>(s.containers());
    List<AppSnapshot> apps = new ArrayList<>(s.apps());
    Set<String> marked = new HashSet<>(s.marked());
    PreemptionPlan once = PreemptionPlanner.plan(ANY_LOAD, s.root(), s.shares(), s.cluster(), apps, s.asks(), nodes,
        containers, s.starvation(), marked, s.outstanding());
    assertThat(nodes).isEqualTo(s.nodes());
    assertThat(containers).isEqualTo(s.containers());
    assertThat(apps).isEqualTo(s.apps());
    assertThat(marked).isEqualTo(s.marked());
    assertThat(s.plan()).isEqualTo(once);
  }
}
