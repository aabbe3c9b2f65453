package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityCluster.GB;
import static dev.bobbin.core.policy.capacity.CapacityCluster.policyConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Container assignment by the capacity policy, with the numbers Hadoop's CapacityScheduler gives. */
class CapacityAssignmentTest {
  private static final Resource ONE_GB = new Resource(GB, 1);

  private static List<String> queuesOf(List<Assignment> placed, CapacityCluster c) {
    return placed.stream().map(a -> c.app(a.appId()).queue).toList();
  }

  @Nested
  class HadoopsSingleQueueWithOneUser {
    // Hadoop's TestLeafQueue.testSingleQueueWithOneUser: a is 8.5 % of an 8 GB node, unlimited.
    private static final String QUEUES = "queues { a { capacity = 8.5, maximum-capacity = 100 }, b { capacity = 91.5 } }";

    @Test
    void aUserGetsOneContainerPastItsLimitAndTheFactorAndMaximumCapacityMoveTheLimits() {
      CapacityCluster c = new CapacityCluster(QUEUES).node("n1", 8 * GB, 16);
      c.submit("app_0", "a", "user_0");
      c.submit("app_1", "a", "user_0");
      c.ask("app_0", ONE_GB, 3).ask("app_1", ONE_GB, 2);

      // a is guaranteed 0.085 x 8 GB = 696 MB, counted as the minimum allocation of 1 GB: user_0's
      // limit is 1 GB. The first container is within it.
      c.pass(1);
      assertThat(c.appGb("app_0")).isEqualTo(1);
      // The second too: a user is held back only once it is above its limit, not at it.
      c.pass(1);
      assertThat(c.appGb("app_0")).isEqualTo(2);
      // 2 GB is above 1 GB: nothing more, however idle the node.
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();

      // user-limit-factor 10: the limit is 10 GB, so app_0 gets its third container and app_1 its first.
      assertThat(c.policy.reconfigure(policyConfig(
          "queues { a { capacity = 8.5, maximum-capacity = 100, user-limit-factor = 10 }, b { capacity = 91.5 } }")))
          .isInstanceOf(Reconfiguration.Accepted.class);
      c.pass(1);
      assertThat(c.appGb("app_0")).isEqualTo(3);
      c.pass(1);
      assertThat(c.appGb("app_1")).isEqualTo(1);
      assertThat(c.queueGb("a")).isEqualTo(4);

      // maximum-capacity 50: a holds 4 GB of 8, its maximum, so app_1's second container waits.
      c.policy.reconfigure(policyConfig(
          "queues { a { capacity = 8.5, maximum-capacity = 50, user-limit-factor = 10 }, b { capacity = 91.5 } }"));
      assertThat(c.pass(Integer.MAX_VALUE).isEmpty()).isTrue();
      // app_0's containers end: a is below its maximum again and app_1 gets the rest of its ask.
      c.release("app_0", 3);
      c.pass(Integer.MAX_VALUE);
      assertThat(c.appGb("app_1")).isEqualTo(2);
    }
  }

  @Nested
  class Elasticity {
    // a is guaranteed 30 % of 40 GB (12 GB) and may grow to 60 % (24 GB); b is guaranteed 70 % (28 GB).
    // user-limit-factor 2 lets a's one user grow with the queue to twice its guarantee.
    private static final String QUEUES = "queues { a { capacity = 30, maximum-capacity = 60, user-limit-factor = 2 },"
        + " b { capacity = 70 } }";

    @Test
    void aQueueGrowsIntoIdleCapacityUpToItsMaximumAndGivesItBackAsContainersEnd() {
      CapacityCluster c = new CapacityCluster(QUEUES).nodes(10, 4 * GB, 4);
      c.submit("app-a", "a", "alice");
      c.ask("app-a", ONE_GB, 100);

      // b asks nothing: a takes its 12 GB and 12 GB more of b's idle guarantee, up to its maximum of
      // 24 GB (60 % of 40 GB), and no further although 16 GB stay free.
      c.settle();
      assertThat(c.queueGb("a")).isEqualTo(24);

      // b arrives and takes the 16 GB that are free.
      c.submit("app-b", "b", "bob");
      c.ask("app-b", ONE_GB, 100);
      c.settle();
      assertThat(c.queueGb("b")).isEqualTo(16);

      // a's containers end one by one while a still asks: each freed container goes to b, which is
      // below its guarantee (16 of 28 GB) while a is above its own (24 of 12 GB), until a is back at
      // its guarantee and b at its own.
      for (int i = 0; i < 12; i++) {
        c.release("app-a", 1);
        List<Assignment> placed = c.settle();
        assertThat(queuesOf(placed, c)).as("container %d freed by a", i + 1).containsExactly("root.b");
      }
      assertThat(c.queueGb("a")).isEqualTo(12);
      assertThat(c.queueGb("b")).isEqualTo(28);

      // b's application ends: a grows back to its maximum.
      c.finish("app-b");
      c.settle();
      assertThat(c.queueGb("a")).isEqualTo(24);
    }
  }

  @Nested
  class Hierarchy {
    // The seed's tree on 100 GB: a (40 %, at most 60 %) holds a1 (70 % of a: 28 GB) and a2 (30 % of
    // a: 12 GB, at most 50 % of a's maximum: 30 GB); b (50 %) is idle; c (10 %, at most cMax %).
    // user-limit-factor -1 lifts the user limits, so the queues' limits alone decide.
    private static String queues(int cMax) {
      return """
          queues {
            a { capacity = 40, maximum-capacity = 60, queues {
                  a1 { capacity = 70, user-limit-factor = -1 }
                  a2 { capacity = 30, maximum-capacity = 50, user-limit-factor = -1 } } }
            b { capacity = 50, maximum-capacity = 80, queues {
                  b1 { capacity = 10 }, b2 { capacity = 20 }, b3 { capacity = 70 } } }
            c { capacity = 10, maximum-capacity = %d, user-limit-factor = -1 }
          }""".formatted(cMax);
    }

    private CapacityCluster asking(int cMax, String... leaves) {
      CapacityCluster c = new CapacityCluster(queues(cMax)).nodes(10, 10 * GB, 10);
      for (String q : leaves) {
        c.submit("app-" + q, q, "user-" + q);
        c.ask("app-" + q, ONE_GB, 100);
      }
      return c;
    }

    @Test
    void theLeastUsedQueueOverItsGuaranteeGoesFirstAtEveryLevel() {
      CapacityCluster c = asking(30, "a.a1", "a.a2", "c");
      // All unused: a (40 %) before c (10 %) as the larger guarantee, and in a, a1 (28 GB) before a2.
      // Then c, at 0 of its guarantee, before a at 1 of 40 GB; then in a, a2 at 0 before a1.
      List<Assignment> first = c.pass(3).assignments();
      assertThat(queuesOf(first, c)).containsExactly("root.a.a1", "root.c", "root.a.a2");

      // a and c grow in step by use over guarantee (4 GB of a for each of c) until a reaches its
      // maximum of 60 GB with c at 15; c then grows alone to its maximum of 30 GB. In a, a1 and a2
      // grow in step (28 to 12) to 42 and 18 GB. 10 GB stay free for b, which asks nothing.
      c.settle();
      assertThat(c.queueGb("a")).isEqualTo(60);
      assertThat(c.queueGb("a.a1")).isEqualTo(42);
      assertThat(c.queueGb("a.a2")).isEqualTo(18);
      assertThat(c.queueGb("c")).isEqualTo(30);
    }

    @Test
    void aSubQueueStopsAtItsMaximumWithinItsParents() {
      // a2 alone in a: its maximum is 50 % of a's maximum of 60 %, so 30 GB, though a may hold 60.
      CapacityCluster c = asking(30, "a.a2", "c");
      c.settle();
      assertThat(c.queueGb("a.a2")).isEqualTo(30);
      assertThat(c.queueGb("c")).isEqualTo(30);
    }

    @Test
    void anOrganisationsSubQueuesShareWhatItFreesBeforeOtherQueues() {
      // c may grow to the whole cluster. a stops at 60 GB (a1 42, a2 18) with c at 15; c takes the
      // remaining 40 GB.
      CapacityCluster c = asking(100, "a.a1", "a.a2", "c");
      c.settle();
      assertThat(c.queueGb("a")).isEqualTo(60);
      assertThat(c.queueGb("c")).isEqualTo(40);
      // a2's application ends and frees 18 GB. a at 42 of its 40 GB guarantee (1.05) is less used
      // than c at 40 of 10 GB (4.0): all of it goes to a1, in the same organisation, and c, which
      // still asks, gets none.
      c.finish("app-a.a2");
      List<Assignment> placed = c.settle();
      assertThat(queuesOf(placed, c)).hasSize(18).containsOnly("root.a.a1");
      assertThat(c.queueGb("a.a1")).isEqualTo(60);
    }
  }

  @Nested
  class TheDefaultCalculator {
    @Test
    void countsMemoryAloneSoANodeTakesContainersWhileItsMemoryLasts() {
      // One node of 8 GB and only 4 vcores. Hadoop's default calculator gives each container one
      // vcore and fits them by memory: all eight 1 GB containers go on it, as in Hadoop.
      CapacityCluster c = new CapacityCluster("queues { a { capacity = 100 } }").node("n1", 8 * GB, 4);
      c.submit("app", "a", "alice");
      c.ask("app", ONE_GB, 8);
      c.settle();
      assertThat(c.appGb("app")).isEqualTo(8);
      // The dominant calculator counts vcores too: four.
      CapacityCluster d = new CapacityCluster("resource-calculator = dominant\nqueues { a { capacity = 100 } }")
          .node("n1", 8 * GB, 4);
      d.submit("app", "a", "alice");
      d.ask("app", ONE_GB, 8);
      d.settle();
      assertThat(d.appGb("app")).isEqualTo(4);
    }
  }

  @Nested
  class ADominantParentPassesItsMaximumMemory {
    // Dominant calculator on 20 GB and 20 vcores. p may hold 50 % (10 GB, 10 vcores); its child y
    // may hold 60 % of that (6 GB, 6 vcores).
    private static final String QUEUES = "resource-calculator = dominant\n"
        + "queues { p { capacity = 50, maximum-capacity = 50, queues {"
        + " x { capacity = 50, user-limit-factor = 2 },"
        + " y { capacity = 50, maximum-capacity = 60, user-limit-factor = 2 } } },"
        + " q { capacity = 50 } }";

    @Test
    void aLeafWhoseOwnMaximumIsTheSmallerTakesMemoryItsParentNoLongerHas() {
      CapacityCluster c = new CapacityCluster(QUEUES).nodes(2, 10 * GB, 10);
      c.submit("app-x", "p.x", "alice");
      c.ask("app-x", new Resource(3 * GB, 1), 2);
      c.settle();
      assertThat(c.queueGb("p")).isEqualTo(6);

      // p leaves y 10 - 6 = 4 GB and 10 - 2 = 8 vcores: a dominant share of 8/20 = 0.4. y's own
      // maximum, 6 GB and 6 vcores, is 0.3, the smaller, so it is y's limit, as Hadoop's
      // Resources.min with the dominant calculator takes it. The 5 GB container fits in it; p below
      // its maximum (0.3 of 0.5) is offered the node. p ends at 11 GB, past its 10 GB, as it would
      // in Hadoop, and is offered nothing more.
      c.submit("app-y", "p.y", "bob");
      c.ask("app-y", new Resource(5 * GB, 1), 2);
      c.settle();
      assertThat(c.queueGb("p.y")).isEqualTo(5);
      assertThat(c.queueGb("p")).isEqualTo(11);
    }
  }

  @Nested
  class UserLimitFactor {
    // a is guaranteed 25 % of 40 GB (10 GB) and may use the whole cluster; one user asks for all of it.
    private static long settleOneUser(float factor) {
      CapacityCluster c = new CapacityCluster("queues { a { capacity = 25, maximum-capacity = 100, user-limit-factor = "
          + factor + " }, b { capacity = 75 } }").nodes(10, 4 * GB, 4);
      c.submit("app", "a", "alice");
      c.ask("app", ONE_GB, 100);
      c.settle();
      return c.userGb("alice");
    }

    @Test
    void factorOneCapsAUserAtTheQueuesCapacityHoweverIdleTheCluster() {
      // Limit: 10 GB x 1; alice takes one container past it (at 10 GB she is not above it): 11 GB.
      assertThat(settleOneUser(1)).isEqualTo(11);
    }

    @Test
    void factorTwoLetsOneUserGrowToTwiceTheQueuesCapacity() {
      // Limit: 10 GB x 2 = 20 GB, and one container past it: 21 GB.
      assertThat(settleOneUser(2)).isEqualTo(21);
    }
  }

  @Nested
  class MinimumUserLimitPercent {
    // One queue of the whole 100 GB cluster with minimum-user-limit-percent 25; every user has one
    // application asking for 100 containers of 1 GB. The limit is the larger of 25 % of the queue and
    // (what the active users hold + 1 GB) / their number, and a user takes a container while it is
    // at or below it: in FIFO order the first users end a container or two ahead.
    private List<Long> settle(int users) {
      CapacityCluster c = new CapacityCluster("queues { default { capacity = 100, minimum-user-limit-percent = 25 } }")
          .nodes(10, 10 * GB, 10);
      for (int u = 1; u <= users; u++) {
        c.submit("app-" + u, "default", "user" + u);
        c.ask("app-" + u, ONE_GB, 100);
      }
      c.settle();
      return java.util.stream.IntStream.rangeClosed(1, users).mapToObj(u -> c.userGb("user" + u)).toList();
    }

    @Test
    void oneUserTakesTheWholeQueue() {
      assertThat(settle(1)).containsExactly(100L);
    }

    @Test
    void twoUsersShareItInHalves() {
      // Each may take a container while at or below (both + 1 GB) / 2: they leapfrog to 51 and 49.
      assertThat(settle(2)).containsExactly(51L, 49L);
    }

    @Test
    void threeUsersShareItInThirds() {
      // 25 GB at first (25 % of the queue), each taking one past it: 26, 26, 26; then (78 + 1) / 3
      // and upwards as they hold more: 35, 34 and 31 when the queue is full.
      assertThat(settle(3)).containsExactly(35L, 34L, 31L);
    }

    @Test
    void fourUsersGetAQuarterEach() {
      // (used + 1 GB) / 4 never passes 25 GB: each takes one container past 25 GB; the fourth gets what is left.
      assertThat(settle(4)).containsExactly(26L, 26L, 26L, 22L);
    }

    @Test
    void aFifthUserWaitsForTheOthersToFinish() {
      // 25 % is the floor: four users fill the queue and the fifth gets nothing until one of them finishes.
      assertThat(settle(5)).containsExactly(26L, 26L, 26L, 22L, 0L);
    }
  }

  @Nested
  class AmResourcePercent {
    // One queue of a 10 GB node; maximum-am-resource-percent 0.1 lets its AMs hold 1 GB.
    @Test
    void applicationsBeyondTheAmLimitWaitWithHadoopsDiagnosticsAndStartAsOthersEnd() {
      CapacityCluster c = new CapacityCluster("queues { default { capacity = 100 } }").node("n1", 10 * GB, 10);
      c.submitWithAm("app-1", "default", "alice", ONE_GB);
      c.submitWithAm("app-2", "default", "bob", ONE_GB);
      c.submitWithAm("app-3", "default", "carol", ONE_GB);

      // app-1 is activated and its AM placed; app-2 and app-3 would take the AMs to 2 GB.
      List<Assignment> placed = c.settle();
      assertThat(placed).extracting(Assignment::appId).containsExactly("app-1");
      assertThat(c.policy.diagnostics("app-1")).isEmpty();
      assertThat(c.policy.diagnostics("app-2")).hasValue(ApplicationLimits.NOT_YET_ACTIVATED
          + ApplicationLimits.QUEUE_AM_RESOURCE_LIMIT_EXCEEDED + " Details : AM Partition = <DEFAULT_PARTITION>;"
          + " AM Resource Request = <memory:1024, vCores:1>; Queue Resource Limit for AM = <memory:1024, vCores:1>;"
          + " User AM Resource Limit of the queue = <memory:1024, vCores:1>;"
          + " Queue AM Resource Usage = <memory:1024, vCores:1>; ");

      // app-1 ends: app-2 starts, in submission order; app-3 still waits.
      c.finish("app-1");
      placed = c.settle();
      assertThat(placed).extracting(Assignment::appId).containsExactly("app-2");
      assertThat(c.policy.diagnostics("app-3")).get().asString().contains("Queue's AM resource limit exceeded");
    }
  }

  @Nested
  class OrderWithinALeaf {
    private CapacityCluster leaf(String ordering, String extra) {
      return new CapacityCluster("queues { default { capacity = 100, ordering-policy = " + ordering + " } }" + extra)
          .node("n1", 10 * GB, 10);
    }

    @Test
    void fifoServesTheFirstSubmittedApplicationFirst() {
      CapacityCluster c = leaf("fifo", "");
      c.submit("first", "default", "alice");
      c.submit("second", "default", "alice");
      c.ask("first", ONE_GB, 10).ask("second", ONE_GB, 10);
      c.settle();
      assertThat(c.appGb("first")).isEqualTo(10);
      assertThat(c.appGb("second")).isZero();
    }

    @Test
    void fifoServesHigherPrioritiesFirstUpToTheClustersMaximumPriority() {
      // max-application-priority 3: priority 5 counts as 3, still above 2; an application submitted
      // without a priority takes the queue's default-application-priority, 1.
      CapacityCluster c = new CapacityCluster("max-application-priority = 3, queues { default { capacity = 100,"
          + " default-application-priority = 1 } }").node("n1", 10 * GB, 10);
      c.submit("none", "default", "alice", 0);
      c.submit("two", "default", "alice", 2);
      c.submit("five", "default", "alice", 5);
      for (String app : List.of("none", "two", "five")) c.ask(app, ONE_GB, 4);
      List<Assignment> placed = c.settle();
      assertThat(placed).extracting(Assignment::appId).containsExactly(
          "five", "five", "five", "five", "two", "two", "two", "two", "none", "none");
    }

    @Test
    void withoutAClusterMaximumPriorityEveryApplicationIsEqualAndSubmissionOrderDecides() {
      // Hadoop's default max-application-priority is 0: priorities are capped to 0.
      CapacityCluster c = leaf("fifo", "");
      c.submit("low", "default", "alice", 1);
      c.submit("high", "default", "alice", 9);
      c.ask("low", ONE_GB, 10).ask("high", ONE_GB, 10);
      c.settle();
      assertThat(c.appGb("low")).isEqualTo(10);
    }

    @Test
    void fairServesTheApplicationUsingLeastFirst() {
      CapacityCluster c = leaf("fair", "");
      c.submit("first", "default", "alice");
      c.submit("second", "default", "alice");
      c.ask("first", ONE_GB, 10).ask("second", ONE_GB, 10);
      c.settle();
      assertThat(c.appGb("first")).isEqualTo(5);
      assertThat(c.appGb("second")).isEqualTo(5);
    }
  }
}
