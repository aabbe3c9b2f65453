package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityTestQueues.gb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.mb;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.queue;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.root;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.seedTree;
import static dev.bobbin.core.policy.capacity.CapacityTestQueues.settings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.policy.capacity.ApplicationLimits.Activation;
import dev.bobbin.core.policy.capacity.ApplicationLimits.ActivationPlan;
import dev.bobbin.core.policy.capacity.ApplicationLimits.ActiveApp;
import dev.bobbin.core.policy.capacity.ApplicationLimits.AmLimits;
import dev.bobbin.core.policy.capacity.ApplicationLimits.PendingApp;
import dev.bobbin.protocol.Resource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** maximum-applications and maximum-am-resource-percent, with the numbers Hadoop 3.4.2 gives. */
class ApplicationLimitsTest {

  private static CapacityTree tree(CapacityQueueSpec spec, Resource cluster) {
    return CapacityTree.compute(spec, cluster, settings(ResourceMath.DEFAULT));
  }

  private static ActiveApp running(String id, String user, long amMegabytes) {
    return new ActiveApp(id, user, mb(amMegabytes, 1), true);
  }

  private static PendingApp waiting(String id, String user, long amMegabytes) {
    return new PendingApp(id, user, 0, mb(amMegabytes, 1));
  }

  @Nested
  class MaximumApplications {
    @Test
    void withoutAQueueSettingTheSchedulersLimitIsSharedByAbsoluteCapacity() {
      // The seed's tree: a1 holds 0.120000005 of the cluster, so (int) (10000 x 0.120000005f) = 1200;
      // b3 0.35: 3500. minimum-user-limit-percent 100 and factor 1: a user may have all of them.
      CapacityTree t = tree(seedTree(), gb(100, 100));
      assertThat(ApplicationLimits.maximumApplications(t, "root.a.a1")).isEqualTo(1200);
      assertThat(ApplicationLimits.maximumApplications(t, "root.b.b3")).isEqualTo(3500);
      assertThat(ApplicationLimits.maximumApplicationsPerUser(t, "root.a.a1")).isEqualTo(1200);
    }

    @Test
    void hadoopsLimitsComputation() {
      // Hadoop's TestApplicationLimits: a is 10 % with minimum-user-limit-percent 50 and factor 5.
      CapacityQueueSpec spec = root(queue("root.a", 10).minimumUserLimitPercent(50).userLimitFactor(5),
          queue("root.b", 90));
      CapacityTree t = tree(spec, gb(1600, 1600));
      // (int) (10000 x 0.1f) = 1000; per user min(1000, (int) (1000 x 0.5 x 5)) = 1000.
      assertThat(ApplicationLimits.maximumApplications(t, "root.a")).isEqualTo(1000);
      assertThat(ApplicationLimits.maximumApplicationsPerUser(t, "root.a")).isEqualTo(1000);
      // Set on the queue: 9999, and per user min(9999, 24997) = 9999.
      CapacityTree set = tree(spec.toBuilder().children(List.of(
          queue("root.a", 10).minimumUserLimitPercent(50).userLimitFactor(5).maximumApplications(9999).build(),
          queue("root.b", 90).build())).build(), gb(1600, 1600));
      assertThat(ApplicationLimits.maximumApplications(set, "root.a")).isEqualTo(9999);
      assertThat(ApplicationLimits.maximumApplicationsPerUser(set, "root.a")).isEqualTo(9999);
    }

    @Test
    void hadoopsDerivationFromAbsoluteResources() {
      // Hadoop's TestParentQueue: a asks 6 GB and 10 vcores, b 14 GB and 22 vcores, of 20 GB and 32:
      // capacities 0.3 and 0.7, so 3000 and 7000 applications.
      CapacityQueueSpec spec = root(queue("root.a", mb(6144, 10)), queue("root.b", mb(14336, 22)));
      CapacityTree t = tree(spec, gb(20, 32));
      assertThat(ApplicationLimits.maximumApplications(t, "root.a")).isEqualTo(3000);
      assertThat(ApplicationLimits.maximumApplications(t, "root.b")).isEqualTo(7000);
      // global-queue-max-application 8000 is shared the same way by absolute queues: 2400 and 5600.
      CapacityTree global = CapacityTree.compute(spec, gb(20, 32),
          settings(ResourceMath.DEFAULT).withApplications(10000, 8000));
      assertThat(ApplicationLimits.maximumApplications(global, "root.a")).isEqualTo(2400);
      assertThat(ApplicationLimits.maximumApplications(global, "root.b")).isEqualTo(5600);
    }

    @Test
    void aGlobalPerQueueLimitGoesWholeToEveryPercentageQueue() {
      CapacityTree t = CapacityTree.compute(seedTree(), gb(100, 100),
          settings(ResourceMath.DEFAULT).withApplications(10000, 300));
      assertThat(ApplicationLimits.maximumApplications(t, "root.a.a1")).isEqualTo(300);
      assertThat(ApplicationLimits.maximumApplications(t, "root.c")).isEqualTo(300);
    }

    @Test
    void thePerUserShareFollowsTheUserLimitAndFactor() {
      // 30000 applications; minimum-user-limit-percent 50 and factor 0.9: (int) (30000 x 0.5 x 0.9f)
      // = 13500. 33.3 % and factor 1: 9990. 125 % cannot give a user more than the queue: 30000.
      // Factor -1: the queue's.
      assertThat(perUser(50f, 0.9f)).isEqualTo(13500);
      assertThat(perUser(33.3f, 1f)).isEqualTo(9990);
      assertThat(perUser(125f, 1f)).isEqualTo(30000);
      assertThat(perUser(25f, -1f)).isEqualTo(30000);
    }

    private int perUser(float userLimit, float factor) {
      CapacityTree t = tree(root(queue("root.a", 100).maximumApplications(30000)
          .minimumUserLimitPercent(userLimit).userLimitFactor(factor)), gb(10, 10));
      return ApplicationLimits.maximumApplicationsPerUser(t, "root.a");
    }
  }

  @Nested
  class Admission {
    private final CapacityTree t = tree(root(queue("root.a", 100).maximumApplications(4)
        .minimumUserLimitPercent(50)), gb(10, 10));

    @Test
    void submissionsBeyondTheLimitsAreRefusedWithHadoopsMessages() {
      // The queue takes 4 applications, a user (int) (4 x 0.5 x 1) = 2.
      assertThat(ApplicationLimits.admit(t, "root.a", "application_1_0005", "alice", 3, 3, 1).accepted()).isTrue();
      assertThat(ApplicationLimits.admit(t, "root.a", "application_1_0005", "alice", 4, 4, 1).reason())
          .isEqualTo("Queue root.a already has 4 applications, cannot accept submission of application: "
              + "application_1_0005");
      assertThat(ApplicationLimits.admit(t, "root.a", "application_1_0005", "alice", 3, 3, 2).reason())
          .isEqualTo("Queue root.a already has 2 applications from user alice cannot accept submission of "
              + "application: application_1_0005");
      CapacityTree full = CapacityTree.compute(root(queue("root.a", 100)), gb(10, 10),
          settings(ResourceMath.DEFAULT).withApplications(3, -1));
      assertThat(ApplicationLimits.admit(full, "root.a", "application_1_0005", "alice", 3, 0, 0).reason())
          .isEqualTo("Maximum system application limit reached,cannot accept submission of application: "
              + "application_1_0005");
    }

    @Test
    void aStoppedQueueTakesNothing() {
      CapacityTree stopped = tree(root(queue("root.a", 100).state(CapacityQueueState.STOPPED)), gb(10, 10));
      assertThat(ApplicationLimits.admit(stopped, "root.a", "application_1_0001", "alice", 0, 0, 0).reason())
          .isEqualTo("Queue root.a is STOPPED. Cannot accept submission of application: application_1_0001");
    }
  }

  /** Hadoop's TestApplicationLimits: 80 GB and 40 vcores; a is 10 % with user limit 50 % and factor 5. */
  @Nested
  class HadoopsAmResourceLimit {
    private final CapacityTree t = tree(root(
        queue("root.a", 10).minimumUserLimitPercent(50).userLimitFactor(5), queue("root.b", 90)), gb(80, 40));
    private final Resource currentLimit = t.currentLimit("root.a", t.rollUp(Map.of()));

    @Test
    void theQueueAndUserAmLimits() {
      // The queue may grow to the cluster: 10 % of 80 GB = 8 GB for AMs. A user: a's 8 GB guarantee x
      // 10 % x max(50 %, 1/1 active user) x factor 5 = 4 GB; with two active users 50 %: 2 GB.
      AmLimits one = ApplicationLimits.amLimits(t, "root.a", currentLimit, 1);
      assertThat(one.queueLimit()).isEqualTo(gb(8, 1));
      assertThat(one.userLimit()).isEqualTo(gb(4, 1));
      assertThat(ApplicationLimits.amLimits(t, "root.a", currentLimit, 2).userLimit()).isEqualTo(gb(2, 1));
      assertThat(one.reason()).contains("maximum-am-resource-percent 0.1 of <memory:81920, vCores:1>");
    }

    @Test
    void aSecondUserHalvesTheUserShareAndHoldsItsSecondApplication() {
      // user_0 submits two 2 GB AMs: both start (4 GB is its limit while it is alone).
      ActivationPlan p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(),
          List.of(waiting("app_0", "user_0", 2048)), "app_0");
      assertThat(p.activated()).containsExactly("app_0");
      p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(running("app_0", "user_0", 2048)),
          List.of(waiting("app_1", "user_0", 2048)), "app_1");
      assertThat(p.activated()).containsExactly("app_1");
      // user_1's first application starts: it is not counted yet while its own submission is decided.
      List<ActiveApp> three = List.of(running("app_0", "user_0", 2048), running("app_1", "user_0", 2048));
      p = ApplicationLimits.activate(t, "root.a", currentLimit, three, List.of(waiting("app_2", "user_1", 2048)),
          "app_2");
      assertThat(p.activated()).containsExactly("app_2");
      // Two active users: 2 GB each. user_1's second application waits.
      List<ActiveApp> all = List.of(running("app_0", "user_0", 2048), running("app_1", "user_0", 2048),
          running("app_2", "user_1", 2048));
      p = ApplicationLimits.activate(t, "root.a", currentLimit, all, List.of(waiting("app_3", "user_1", 2048)),
          "app_3");
      assertThat(p.activated()).isEmpty();
      Activation held = p.activations().get(0);
      assertThat(held.reason()).isEqualTo("User's AM resource limit exceeded.");
      assertThat(held.diagnostics()).isEqualTo("Application is added to the scheduler and is not yet activated. "
          + "User's AM resource limit exceeded.  Details : AM Partition = <DEFAULT_PARTITION>; "
          + "AM Resource Request = <memory:2048, vCores:1>; Queue Resource Limit for AM = <memory:8192, vCores:1>; "
          + "User AM Resource Limit of the queue = <memory:2048, vCores:1>; "
          + "Queue AM Resource Usage = <memory:6144, vCores:3>; ");
      // app_2 finishes: user_1 has only a waiting application and still counts, so 2 GB each; its 2 GB
      // AM fits.
      p = ApplicationLimits.activate(t, "root.a", currentLimit,
          List.of(running("app_0", "user_0", 2048), running("app_1", "user_0", 2048)),
          List.of(waiting("app_3", "user_1", 2048)), null);
      assertThat(p.activated()).containsExactly("app_3");
      assertThat(p.limits().activeUsers()).isEqualTo(2);
      assertThat(p.amUsed()).isEqualTo(mb(6144, 3));
    }
  }

  /** A queue of 20 % of 100 GB that may not grow: 20 GB, and 10 % of it, 2 GB, for AMs. */
  @Nested
  class AmPercentHoldsApplications {
    private final CapacityTree t = tree(root(queue("root.a", 20).maximumCapacity(20), queue("root.b", 80)),
        gb(100, 100));
    private final Resource currentLimit = t.currentLimit("root.a", t.rollUp(Map.of()));

    @Test
    void applicationsWaitWhileTheAmShareIsUsedAndStartAsItFrees() {
      // Three 1 GB AMs from three users: two fit in 2 GB, the third waits for the queue's limit.
      ActivationPlan p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(), List.of(
          waiting("app_1", "alice", 1024), waiting("app_2", "bob", 1024), waiting("app_3", "carol", 1024)), null);
      assertThat(p.limits().queueLimit()).isEqualTo(gb(2, 1));
      assertThat(p.activated()).containsExactly("app_1", "app_2");
      assertThat(p.activations().get(2).reason()).isEqualTo("Queue's AM resource limit exceeded.");
      assertThat(p.activations().get(2).diagnostics()).startsWith(
          "Application is added to the scheduler and is not yet activated. Queue's AM resource limit exceeded. ");
      // app_1 finishes: app_3 starts.
      p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(running("app_2", "bob", 1024)),
          List.of(waiting("app_3", "carol", 1024)), null);
      assertThat(p.activated()).containsExactly("app_3");
    }

    @Test
    void aWaitingApplicationDoesNotHoldBackASmallerOneBehindIt() {
      ActivationPlan p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(running("app_1", "alice", 1024)),
          List.of(waiting("app_2", "bob", 2048), waiting("app_3", "carol", 1024)), null);
      assertThat(p.activated()).containsExactly("app_3");
    }

    @Test
    void higherPriorityStartsFirst() {
      ActivationPlan p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(running("app_1", "alice", 1024)),
          List.of(waiting("app_2", "bob", 1024), new PendingApp("app_3", "carol", 5, mb(1024, 1))), null);
      assertThat(p.activated()).containsExactly("app_3");
      assertThat(p.activations()).extracting(Activation::appId).containsExactly("app_3", "app_2");
    }

    @Test
    void anIdleQueueStartsOneApplicationWhateverItsAm() {
      // A 4 GB AM is beyond the 2 GB limit, but the queue runs nothing: it starts, the next waits.
      ActivationPlan p = ApplicationLimits.activate(t, "root.a", currentLimit, List.of(),
          List.of(waiting("app_1", "alice", 4096), waiting("app_2", "alice", 1024)), null);
      assertThat(p.activated()).containsExactly("app_1");
      assertThat(p.activations().get(0).reason()).startsWith("maximum-am-resource-percent is insufficient");
    }

    @Test
    void anEmptyClusterStartsNothing() {
      CapacityTree empty = tree(root(queue("root.a", 100)), Resource.NONE);
      ActivationPlan p = ApplicationLimits.activate(empty, "root.a", Resource.NONE, List.of(),
          List.of(waiting("app_1", "alice", 1024)), "app_1");
      assertThat(p.activated()).isEmpty();
      assertThat(p.activations().get(0).diagnostics()).startsWith("Application is added to the scheduler and is "
          + "not yet activated. Skipping AM assignment as cluster resource is empty. ");
    }
  }

  @ParameterizedTest
  @EnumSource(ResourceMath.class)
  void theQueuesAmLimitUsesWhatTheQueueCanReachNow(ResourceMath math) {
    CapacityTree t = CapacityTree.compute(seedTree(), gb(100, 100), settings(math));
    // a1 is guaranteed 12 GB and may grow to 60 GB: 10 % of 60 GB is 6 GB. The dominant calculator
    // gives the 6 vcores too, the default one 1.
    AmLimits idle = ApplicationLimits.amLimits(t, "root.a.a1", t.currentLimit("root.a.a1", t.rollUp(Map.of())), 0);
    assertThat(idle.queueLimit()).isEqualTo(math == ResourceMath.DOMINANT ? gb(6, 6) : gb(6, 1));
    // When b uses 95 GB, a1 can reach 5 GB, less than its guarantee: the AM limit falls back to 10 %
    // of the 12 GB guarantee, 1.2 GB, rounded up to 2 GB.
    Map<String, Resource> used = t.rollUp(Map.of("root.b.b1", gb(95, 95)));
    AmLimits crowded = ApplicationLimits.amLimits(t, "root.a.a1", t.currentLimit("root.a.a1", used), 0);
    assertThat(crowded.queueLimit().memory()).isEqualTo(2048);
  }
}
