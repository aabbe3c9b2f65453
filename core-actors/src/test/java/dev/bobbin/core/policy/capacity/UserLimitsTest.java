package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityTestQueues.gb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.mb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.queue;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.root;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.settings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.policy.AppSnapshot;
import dev.bobbin.core.policy.capacity.UserLimits.Mode;
import dev.bobbin.core.policy.capacity.UserLimits.Result;
import dev.bobbin.core.policy.capacity.UserLimits.UserUsage;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * User limits as Hadoop's UsersManager computes them; every number here is the one Hadoop 3.4.2
 * gives for the same queue and users. The minimum allocation is 1 GB throughout.
 */
class UserLimitsTest {

  /** {@code users} users asking for more, holding {@code megabytes} between them in equal parts. */
  private static List<UserUsage> active(int users, long megabytes) {
    List<UserUsage> out = new ArrayList<>();
    for (int i = 0; i < users; i++) out.add(new UserUsage("user" + i, mb(megabytes / users, 0), true));
    return out;
  }

  /**
   * The seed's example: minimum-user-limit-percent 25 on a queue of 100 GB (the whole cluster),
   * user-limit-factor 1. With n users keeping the queue full, each may hold 1/n of it, but never
   * less than 25 %; Hadoop adds one minimum allocation of slack and rounds up to it.
   */
  @Nested
  class TheSeedsExample {
    private final CapacityTree tree = CapacityTree.compute(
        root(queue("root.a", 100).minimumUserLimitPercent(25)), gb(100, 100), settings(ResourceMath.DEFAULT));

    private Resource limitWhenFull(int users) {
      return UserLimits.compute(tree, "root.a", active(users, 102400), Mode.ACTIVE_USERS).userLimit();
    }

    @Test
    void oneUserMayTakeTheWholeQueue() {
      // Consumed 100 GB, so the current capacity is 101 GB; 101 GB over 1 user, capped at the queue's
      // capacity x factor 1 = 100 GB.
      assertThat(limitWhenFull(1)).isEqualTo(mb(102400, 1));
    }

    @Test
    void twoUsersHalfEach() {
      // (100 GB used + 1 GB) / 2 = 50.5 GB, above 25 % of 101 GB (25.25 GB): rounded up, 51 GB.
      assertThat(limitWhenFull(2)).isEqualTo(gb(51, 1));
    }

    @Test
    void threeUsersAThirdEach() {
      // 34133 MB each (102399 MB together, consumed rounds up to 100 GB): 103423 MB / 3 = 34474.3 MB,
      // up to 34475, rounded up to 34 GB.
      assertThat(limitWhenFull(3)).isEqualTo(gb(34, 1));
    }

    @Test
    void fourOrMoreUsersAQuarterEach() {
      // 4 users: 101 GB / 4 = 25.25 GB. 5 users: 101 GB / 5 = 20.2 GB, below the minimum of 25 % of
      // 101 GB = 25.25 GB. Both round up to 26 GB.
      assertThat(limitWhenFull(4)).isEqualTo(gb(26, 1));
      assertThat(limitWhenFull(5)).isEqualTo(gb(26, 1));
    }

    @Test
    void inAnEmptyQueueEveryUserStartsAtTheMinimumPercentage() {
      // Nothing used: the current capacity is the queue's 100 GB, and 25 % of it beats (0 + 1 GB) / n.
      for (int users = 1; users <= 5; users++) {
        Result r = UserLimits.compute(tree, "root.a", active(users, 0), Mode.ACTIVE_USERS);
        assertThat(r.userLimit()).as("%d users", users).isEqualTo(gb(25, 1));
      }
    }

    @Test
    void theLimitGrowsAsTheUsersConsume() {
      // Two users holding 30 GB between them: (30 + 1) / 2 = 15.5 GB is below 25 GB, so 25 GB; at
      // 80 GB: 40.5 GB, rounded up to 41 GB.
      assertThat(UserLimits.compute(tree, "root.a", active(2, 30 * 1024), Mode.ACTIVE_USERS).userLimit())
          .isEqualTo(gb(25, 1));
      assertThat(UserLimits.compute(tree, "root.a", active(2, 80 * 1024), Mode.ACTIVE_USERS).userLimit())
          .isEqualTo(gb(41, 1));
    }
  }

  /**
   * user-limit-factor on a queue guaranteed 50 GB of a 100 GB cluster, with no maximum: one user,
   * minimum-user-limit-percent 100.
   */
  @Nested
  class TheUserLimitFactor {
    private Resource limit(float factor, long usedGigabytes) {
      CapacityTree t = CapacityTree.compute(
          root(queue("root.a", 50).userLimitFactor(factor), queue("root.b", 50)), gb(100, 100),
          settings(ResourceMath.DEFAULT));
      return UserLimits.compute(t, "root.a", List.of(new UserUsage("alice", gb(usedGigabytes, 0), true)),
          Mode.ACTIVE_USERS).userLimit();
    }

    @Test
    void factorOneHoldsAUserAtTheQueuesCapacityHoweverIdleTheCluster() {
      // 50 GB x 1, whatever alice uses.
      for (long used : new long[] {0, 25, 50, 75, 99}) {
        assertThat(limit(1f, used)).as("at %d GB", used).isEqualTo(gb(50, 1));
      }
    }

    @Test
    void factorTwoLetsOneUserGrowPastIt() {
      // The limit follows alice's use plus one minimum allocation, up to 50 GB x 2 = 100 GB.
      assertThat(limit(2f, 0)).isEqualTo(gb(50, 1));
      assertThat(limit(2f, 50)).isEqualTo(gb(51, 1));
      assertThat(limit(2f, 75)).isEqualTo(gb(76, 1));
      assertThat(limit(2f, 99)).isEqualTo(gb(100, 1));
      assertThat(limit(2f, 100)).isEqualTo(gb(100, 1));
    }

    @Test
    void factorMinusOneLiftsTheLimitToTheQueuesMaximum() {
      // Without a factor the cap is the queue's maximum (the cluster here), rounded down.
      assertThat(limit(-1f, 99)).isEqualTo(gb(100, 1));
    }
  }

  /**
   * Hadoop's TestLeafQueue: queue a is 8.5 % of a 16 GB cluster with no maximum, so it is guaranteed
   * (long) (16384 x 0.085f) = 1392 MB; minimum-user-limit-percent 50, user-limit-factor 2.
   */
  @Nested
  class HadoopsLeafQueueCases {
    private final CapacityQueueSpec.Builder a = queue("root.a", 8.5f).minimumUserLimitPercent(50).userLimitFactor(2);

    private CapacityTree tree(CapacityQueueSpec.Builder leaf) {
      return CapacityTree.compute(root(leaf, queue("root.b", 91.5f)), gb(16, 32), settings(ResourceMath.DEFAULT));
    }

    @Test
    void theGuaranteeIsTruncated() {
      assertThat(tree(a).queue("root.a").guaranteed()).isEqualTo(mb(1392, 2));
    }

    @Test
    void aUserOverItsLimitWaitsForTheOther() {
      CapacityTree t = tree(a);
      // user_0 holds 3 GB, user_1 nothing, both asking. Consumed 3 GB, so the current capacity is
      // 4 GB; (3 GB + 1 GB) / 2 = 2 GB, and 50 % of 4 GB is 2 GB too; below 1392 MB x 2 = 2784 MB.
      Result r = UserLimits.compute(t, "root.a", List.of(
          new UserUsage("user_0", gb(3, 0), true), new UserUsage("user_1", Resource.NONE, true)), Mode.ACTIVE_USERS);
      assertThat(r.userLimit()).isEqualTo(gb(2, 1));
      assertThat(r.users().get("user_0").canAssign()).isFalse();
      assertThat(r.users().get("user_1").canAssign()).isTrue();
      // Once user_1 holds 1 GB: (4 + 1) / 2 = 2.5 GB, below 1392 MB x 2 = 2784 MB, rounded up to 3 GB. user_0
      // at 3 GB is not above it and may have another container.
      r = UserLimits.compute(t, "root.a", List.of(
          new UserUsage("user_0", gb(3, 0), true), new UserUsage("user_1", gb(1, 0), true)), Mode.ACTIVE_USERS);
      assertThat(r.userLimit()).isEqualTo(gb(3, 1));
      assertThat(r.users().get("user_0").canAssign()).isTrue();
      assertThat(r.reason()).contains("capped at <memory:2784, vCores:4>");
    }

    @Test
    void aWeightedUserGetsItsWeightTimesTheLimitRoundedDown() {
      CapacityTree t = tree(a.userWeights(Map.of("user_0", 1.5f)));
      // Nothing used yet: (0 + 1 GB) / 2.5 is 410 MB, 50 % of the queue's 1392 MB is 696 MB; rounded
      // up, 1 GB. user_0's 1.5 x 1 GB = 1.5 GB rounds down to 1 GB.
      Result r = UserLimits.compute(t, "root.a", List.of(
          new UserUsage("user_0", Resource.NONE, true), new UserUsage("user_1", Resource.NONE, true)), Mode.ACTIVE_USERS);
      assertThat(r.usersWeight()).isEqualTo(2.5f);
      assertThat(r.userLimit()).isEqualTo(gb(1, 1));
      assertThat(r.users().get("user_0").limit()).isEqualTo(gb(1, 1));
      // user_0 holds 4 GB: (4 + 1) / 2.5 = 2 GB, 50 % of 5 GB = 2.5 GB, rounded up to 3 GB; user_0's
      // 1.5 x 3 GB = 4.5 GB rounds down to 4 GB, which it is not above.
      r = UserLimits.compute(t, "root.a", List.of(
          new UserUsage("user_0", gb(4, 0), true), new UserUsage("user_1", Resource.NONE, true)), Mode.ACTIVE_USERS);
      assertThat(r.userLimit()).isEqualTo(gb(3, 1));
      assertThat(r.users().get("user_0").limit()).isEqualTo(gb(4, 1));
      assertThat(r.users().get("user_0").canAssign()).isTrue();
      // At 8 GB the limit is capped at 2784 MB, so 3 GB again, and user_0's 4 GB is below its use.
      r = UserLimits.compute(t, "root.a", List.of(
          new UserUsage("user_0", gb(8, 0), true), new UserUsage("user_1", Resource.NONE, true)), Mode.ACTIVE_USERS);
      assertThat(r.users().get("user_0").limit()).isEqualTo(gb(4, 1));
      assertThat(r.users().get("user_0").canAssign()).isFalse();
      assertThat(UserLimits.limitFor(t, r, "someone_else")).isEqualTo(gb(3, 1));
    }
  }

  /**
   * Hadoop's TestUsersManager: a 16 GB, 16 vcore cluster, users consuming half of it (one user
   * holding 8 GB, not asking for more), minimum-user-limit-percent 100, factor 1.
   */
  @Nested
  class HadoopsUsersManagerCases {
    private final List<UserUsage> halfUsed = List.of(new UserUsage("other", gb(8, 8), false));

    @Test
    void aQueueWithAGuaranteeCapsItsUsersAtIt() {
      // Guaranteed 8 GB and 1 vcore. Consumed 8 GB is not below it: current capacity 9 GB, capped at
      // 8 GB x 1.
      CapacityTree t = CapacityTree.compute(root(queue("root.a", mb(8192, 1)), queue("root.b", mb(1024, 1))),
          gb(16, 16), settings(ResourceMath.DEFAULT));
      assertThat(UserLimits.compute(t, "root.a", halfUsed, Mode.ACTIVE_USERS).userLimit()).isEqualTo(mb(8192, 1));
    }

    @Test
    void aQueueGuaranteedNothingCapsItsUsersAtItsMaximum() {
      // Guaranteed nothing, at most 56.25 % (9 GB): the cap is the maximum, 9 GB.
      CapacityTree t = CapacityTree.compute(root(queue("root.a", 0).maximumCapacity(56.25f), queue("root.b", 100)),
          gb(16, 16), settings(ResourceMath.DEFAULT));
      Result r = UserLimits.compute(t, "root.a", halfUsed, Mode.ACTIVE_USERS);
      assertThat(r.userLimit()).isEqualTo(mb(9216, 1));
      assertThat(r.reason()).contains("the queue's maximum");
    }
  }

  @Test
  void theDominantCalculatorComparesAndRoundsEveryType() {
    // A queue of 50 GB and 50 vcores on a 100 GB, 100 vcore cluster; u1 holds 20 GB and 40 vcores,
    // u2 nothing, both asking. u1's usage ratio is its dominant share, 0.4, so the users consume
    // 40 GB and 40 vcores though u1 holds 20 GB: still below the queue's 50, the current capacity.
    // The users' share: (20 GB + 1 GB, 40 + 1 vcores) / 2 = 10.5 GB and 20.5, up to 10752 MB and 21.
    CapacityTree t = CapacityTree.compute(root(queue("root.a", 50), queue("root.b", 50)), gb(100, 100),
        settings(ResourceMath.DOMINANT));
    List<UserUsage> users = List.of(new UserUsage("u1", gb(20, 40), true), new UserUsage("u2", Resource.NONE, true));
    Result r = UserLimits.compute(t, "root.a", users, Mode.ACTIVE_USERS);
    assertThat(r.consumed()).isEqualTo(gb(40, 40));
    assertThat(r.currentCapacity()).isEqualTo(gb(50, 50));
    // minimum-user-limit-percent 100: the whole current capacity is larger.
    assertThat(r.userLimit()).isEqualTo(gb(50, 50));
    // With 25 %: 12800 MB and 13 vcores (12.5 rounded up) against 10752 MB and 21 vcores. By
    // dominant share 21 vcores (0.21) beat 13 (0.13), though less memory: 10752 MB, rounded up to
    // 11 GB, and 21 vcores.
    CapacityTree quarter = CapacityTree.compute(
        root(queue("root.a", 50).minimumUserLimitPercent(25), queue("root.b", 50)), gb(100, 100),
        settings(ResourceMath.DOMINANT));
    assertThat(UserLimits.compute(quarter, "root.a", users, Mode.ACTIVE_USERS).userLimit()).isEqualTo(gb(11, 21));
  }

  @Test
  void onlyUsersWithDemandShareTheLimitUnlessAllUsersAreCounted() {
    CapacityTree t = CapacityTree.compute(
        root(queue("root.a", 100).minimumUserLimitPercent(10)), gb(100, 100), settings(ResourceMath.DEFAULT));
    // Three users hold 10 GB each; only a still asks for more. Counting the active users: (10 GB of a
    // + 1 GB) / 1 = 11 GB. Counting all users (as preemption does): the current capacity, the queue's
    // 100 GB, over 3 users = 34133.3 MB, rounded up to 34 GB.
    List<UserUsage> users = List.of(new UserUsage("a", gb(10, 0), true), new UserUsage("b", gb(10, 0), false),
        new UserUsage("c", gb(10, 0), false));
    assertThat(UserLimits.compute(t, "root.a", users, Mode.ACTIVE_USERS).userLimit()).isEqualTo(gb(11, 1));
    assertThat(UserLimits.compute(t, "root.a", users, Mode.ALL_USERS).userLimit()).isEqualTo(gb(34, 1));
    assertThatThrownBy(() -> UserLimits.compute(
        CapacityTree.compute(CapacityTestQueues.seedTree(), gb(1, 1), settings(ResourceMath.DEFAULT)),
        "root.a", users, Mode.ACTIVE_USERS)).hasMessageContaining("root.a is not a leaf queue");
  }

  @Test
  void theUsersOfALeafComeFromItsApplications() {
    // alice holds 3 GB in two applications, one activated and still asking; bob's only application
    // waits for the AM limit, so bob holds nothing and is not active; carol's is in another queue.
    List<AppSnapshot> apps = List.of(
        snapshot("application_1_0001", "root.a", gb(1, 1), gb(1, 1)),
        snapshot("application_1_0002", "root.a", gb(2, 2), Resource.NONE),
        snapshot("application_1_0003", "root.a", Resource.NONE, gb(1, 1)),
        snapshot("application_1_0004", "root.b", gb(5, 5), gb(1, 1)));
    Map<String, String> users = Map.of("application_1_0001", "alice", "application_1_0002", "alice",
        "application_1_0003", "bob", "application_1_0004", "carol");
    assertThat(UserLimits.usersOf("root.a", apps, users, Set.of("application_1_0001", "application_1_0002")))
        .containsExactly(new UserUsage("alice", gb(3, 3), true), new UserUsage("bob", Resource.NONE, false));
    assertThatThrownBy(() -> UserLimits.usersOf("root.a", apps, Map.of(), Set.of()))
        .hasMessageContaining("no user for application application_1_0001");
  }

  private static AppSnapshot snapshot(String appId, String queue, Resource usage, Resource pending) {
    return new AppSnapshot(appId, appId.replace("application", "appattempt") + "_000001", queue, 0, 0, usage,
        Resource.NONE, pending, pending);
  }
}
