package dev.bobbin.core.policy.capacity;

import static dev.bobbin.core.policy.capacity.CapacityCluster.GB;
import static dev.bobbin.core.policy.capacity.CapacityCluster.config;
import static dev.bobbin.core.policy.capacity.CapacityCluster.policyConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.config.QueuePath;
import dev.bobbin.config.SettingsException;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.config.security.Caller;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.protocol.Resource;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The capacity policy set's placement, admission terms, ACLs and refreshes. */
class CapacityPolicySetTest {

  @Nested
  class QueueMappings {
    private static final String QUEUES = """
        queue-mappings = ["u:alice:a1", "g:analysts:a2", "u:%user:%user", "u:bob:%primary_group"]
        queues {
          a { capacity = 50, queues { a1 { capacity = 50 }, a2 { capacity = 50 } } }
          carol { capacity = 20 }
          default { capacity = 20 }
          eng { capacity = 10 }
        }""";

    private final CapacityPolicySet policy = new CapacityPolicySet(config(QUEUES));

    private String placed(String queue, String user, String... groups) {
      Placement p = policy.place(queue, user, List.of(groups));
      assertThat(p).as("placement of %s to '%s'", user, queue).isInstanceOf(Placement.Placed.class);
      return ((Placement.Placed) p).queue();
    }

    @Test
    void mappingsAreTriedLeftToRightAndTheFirstThatNamesAnExistingLeafWins() {
      assertThat(placed(null, "alice")).isEqualTo("root.a.a1");
      assertThat(placed("", "dave", "users", "analysts")).as("a group the user is in").isEqualTo("root.a.a2");
      assertThat(placed("default", "carol")).as("%user: carol's own queue").isEqualTo("root.carol");
      // bob has no queue of his own, so %user names none; his primary group's queue does.
      assertThat(placed(null, "bob", "eng", "analysts-not")).isEqualTo("root.eng");
      // No mapping names a queue for erin: the default queue.
      assertThat(placed(null, "erin", "nobody")).isEqualTo("root.default");
    }

    @Test
    void aNamedQueueIsTakenAsItIsUnlessMappingsOverrideIt() {
      assertThat(placed("eng", "alice")).isEqualTo("root.eng");
      CapacityPolicySet overriding = new CapacityPolicySet(config("queue-mappings-override = true\n" + QUEUES));
      assertThat(((Placement.Placed) overriding.place("eng", "alice", List.of())).queue()).isEqualTo("root.a.a1");
    }

    @Test
    void aQueueIsNamedByItsFullPathItsPathBelowRootOrItsNameAlone() {
      assertThat(placed("root.a.a2", "erin")).isEqualTo("root.a.a2");
      assertThat(placed("a.a2", "erin")).isEqualTo("root.a.a2");
      assertThat(placed("a2", "erin")).isEqualTo("root.a.a2");
    }

    @Test
    void parentAndUnknownQueuesAreRefusedWithHadoopsWords() {
      assertThat(policy.place("a", "erin", List.of())).isEqualTo(new Placement.Rejected(
          "Application submitted by user erin to non-leaf queue: root.a; applications go to leaf queues"));
      assertThat(policy.place("nowhere", "erin", List.of()))
          .isEqualTo(new Placement.Rejected("Application submitted by user erin to unknown queue: nowhere"));
    }

    @Test
    void aNameTwoLeavesShareMustBeGivenInFull() {
      CapacityPolicySet twins = new CapacityPolicySet(config(
          "queues { a { capacity = 50, queues { x { capacity = 100 } } }, b { capacity = 50, queues { x { capacity = 100 } } } }"));
      assertThat(twins.place("x", "erin", List.of())).isEqualTo(new Placement.Rejected(
          "Application submitted by user erin to ambiguous queue: x please use full queue path instead."));
      assertThat(((Placement.Placed) twins.place("b.x", "erin", List.of())).queue()).isEqualTo("root.b.x");
    }

    @Test
    void placementByApplicationNameIsRefusedAsNotSupportedYet() {
      assertThatThrownBy(() -> new CapacityPolicySet(config("application-mappings = [\"nightly:eng\"]\n" + QUEUES)))
          .isInstanceOf(SettingsException.class)
          .hasMessageContaining("yarn.scheduler.queue-placement-rules.app-name")
          .hasMessageContaining("not supported yet");
    }
  }

  @Nested
  class Admission {
    @Test
    void aStoppedQueueOrOneUnderAStoppedParentTakesNothing() {
      CapacityPolicySet policy = new CapacityPolicySet(config(
          "queues { a { capacity = 50, state = STOPPED, queues { a1 { capacity = 100 } } }, b { capacity = 50 } }"));
      assertThat(policy.admission(QueuePath.of("a.a1")).stopped()).isTrue();
      assertThat(policy.admission(QueuePath.of("b")).stopped()).isFalse();
    }

    @Test
    void maximumApplicationsIsTheQueuesOwnOrItsShareOfTheSchedulersAndPerUserItsShareOfThat() {
      CapacityPolicySet policy = new CapacityPolicySet(config("maximum-applications = 1000, queues {"
          + " a { capacity = 30, maximum-applications = 2, minimum-user-limit-percent = 50 }, b { capacity = 70 } }"));
      // a: its own 2; per user (int) (2 x 50 % x user-limit-factor 1) = 1.
      assertThat(policy.admission(QueuePath.of("a"))).isEqualTo(new AdmissionTerms(false, 2, 1));
      // b: (int) (1000 x 0.7) = 700, all of them for one user at minimum-user-limit-percent 100.
      assertThat(policy.admission(QueuePath.of("b"))).isEqualTo(new AdmissionTerms(false, 700, 700));
    }
  }

  @Nested
  class Acls {
    @Test
    void submitAndAdministerRightsAreInheritedDownTheTree() {
      CapacityPolicySet policy = new CapacityPolicySet(config("""
          queues { root { acl-submit-applications = " ", acl-administer-queue = " ", queues {
            a { capacity = 50, acl-submit-applications = "alice", queues { a1 { capacity = 100 } } }
            b { capacity = 50, acl-administer-queue = "bob" }
          } } }"""));
      QueueAcls acls = policy.queueAcls();
      Caller alice = new Caller("alice", List.of());
      Caller bob = new Caller("bob", List.of());
      assertThat(acls.canSubmit(QueuePath.of("a.a1"), alice)).as("from a").isTrue();
      assertThat(acls.canSubmit(QueuePath.of("b"), alice)).isFalse();
      assertThat(acls.canSubmit(QueuePath.of("b"), bob)).as("an administrator may submit").isTrue();
      assertThat(acls.canAdminister(QueuePath.of("a.a1"), bob)).isFalse();
    }
  }

  @Nested
  class Refresh {
    private static final String TWO = "queues { a { capacity = 70 }, b { capacity = 30 } }";

    @Test
    void capacitiesChangeAndQueuesAreAdded() {
      CapacityCluster c = new CapacityCluster(TWO).nodes(1, 10 * GB, 10);
      Reconfiguration r = c.policy.reconfigure(policyConfig("queues { a { capacity = 40 }, b { capacity = 30 },"
          + " c { capacity = 30 } }"));
      assertThat(r).isEqualTo(new Reconfiguration.Accepted("Queues refreshed: [root.a, root.b, root.c]"));
      CapacityView.QueueRow root = ((CapacityView) c.policy.view(c)).root();
      // 0.3f x 100 in float arithmetic, as Hadoop's view shows it.
      assertThat(root.children()).extracting(CapacityView.QueueRow::capacity).containsExactly(40f, 30.000002f, 30.000002f);
    }

    @Test
    void aQueueIsRemovedOnlyStoppedAndDrained() {
      CapacityCluster c = new CapacityCluster("queues { a { capacity = 70 }, b { capacity = 30, state = STOPPED } }")
          .nodes(1, 10 * GB, 10);
      c.submit("app-1", "b", "alice");
      Reconfiguration busy = c.policy.reconfigure(policyConfig("queues { a { capacity = 100 } }"));
      assertThat(busy).isInstanceOf(Reconfiguration.Rejected.class);
      assertThat(((Reconfiguration.Rejected) busy).reasons()).singleElement().asString()
          .contains("yarn.scheduler.capacity.root.queues").contains("root.b").contains("draining");
      // Refused, the running configuration stays: b still takes its application's containers.
      assertThat(c.policy.admission(QueuePath.of("b")).stopped()).isTrue();

      c.finish("app-1");
      assertThat(c.policy.reconfigure(policyConfig("queues { a { capacity = 100 } }")))
          .isInstanceOf(Reconfiguration.Accepted.class);
    }

    @Test
    void aRunningQueueCannotBeRemoved() {
      CapacityPolicySet policy = new CapacityPolicySet(config(TWO));
      Reconfiguration r = policy.reconfigure(policyConfig("queues { a { capacity = 100 } }"));
      assertThat(((Reconfiguration.Rejected) r).reasons()).singleElement().asString()
          .contains("root.b cannot be removed while it is RUNNING");
      assertThat(((Placement.Placed) policy.place("b", "alice", List.of())).queue()).isEqualTo("root.b");
    }

    @Test
    void aConfigurationForAnotherPolicyIsRefused() {
      CapacityPolicySet policy = new CapacityPolicySet(config(TWO));
      PolicyConfig fifo = new PolicyConfig(policyConfig(TWO).scheduler(), null, null);
      assertThat(policy.reconfigure(fifo)).isInstanceOf(Reconfiguration.Rejected.class);
    }
  }

  @Test
  void proportionalPreemptionSwitchedOnByARefreshRunsAtItsMonitoringInterval() {
    CapacityPolicySet policy = new CapacityPolicySet(config("queues { a { capacity = 100 } }"));
    assertThat(policy.updateInterval()).isEmpty();
    assertThat(policy.reconfigure(policyConfig("preemption { enabled = true, monitoring-interval = 2s },"
        + " queues { a { capacity = 100 } }"))).isInstanceOf(Reconfiguration.Accepted.class);
    assertThat(policy.updateInterval()).contains(java.time.Duration.ofSeconds(2));
    assertThat(policy.waitBeforeKill()).isEqualTo(java.time.Duration.ofSeconds(15));
  }

  @Test
  void aLeafsMaximumAllocationCapsTheSchedulersAndItsChildrenInheritIt() {
    CapacityPolicySet policy = new CapacityPolicySet(config("queues { a { capacity = 50, maximum-allocation-mb = 2048,"
        + " queues { a1 { capacity = 100 } } }, b { capacity = 50, maximum-allocation-vcores = 2 } }"));
    AllocationLimits scheduler = new AllocationLimits(new Resource(1024, 1), new Resource(8192, 4));
    assertThat(policy.allocationLimits(scheduler, QueuePath.of("a.a1")).maximum()).isEqualTo(new Resource(2048, 4));
    assertThat(policy.allocationLimits(scheduler, QueuePath.of("b")).maximum()).isEqualTo(new Resource(8192, 2));
    // The default calculator counts memory alone: a container gets one vcore, whatever it asked.
    assertThat(policy.allocationLimits(scheduler, QueuePath.of("b")).normalize(new Resource(3000, 3)))
        .isEqualTo(new Resource(3072, 1));
    assertThat(policy.allocationLimits(scheduler, QueuePath.of("gone")))
        .isEqualTo(new AllocationLimits(scheduler.minimum(), scheduler.maximum(), true));
    CapacityPolicySet dominant = new CapacityPolicySet(config("resource-calculator = dominant\n"
        + "queues { a { capacity = 50 }, b { capacity = 50, maximum-allocation-vcores = 2 } }"));
    assertThat(dominant.allocationLimits(scheduler, QueuePath.of("b")).normalize(new Resource(3000, 3)))
        .isEqualTo(new Resource(3072, 2));
  }

  @Test
  void theViewCrossesToTheAnsweringMemberIntact() throws Exception {
    CapacityCluster c = new CapacityCluster("queues { a { capacity = 70, queues { a1 { capacity = 100 } } },"
        + " b { capacity = 30 } }").nodes(2, 8 * GB, 8);
    c.submit("app-1", "a.a1", "alice");
    c.ask("app-1", new dev.bobbin.protocol.Resource(GB, 1), 3);
    c.settle();
    dev.bobbin.core.policy.SchedulerView view = c.policy.view(c);
    var cbor = new com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper();
    byte[] bytes = cbor.writerFor(dev.bobbin.core.policy.SchedulerView.class).writeValueAsBytes(view);
    dev.bobbin.core.policy.SchedulerView back = cbor.readValue(bytes, dev.bobbin.core.policy.SchedulerView.class);
    assertThat(back).isEqualTo(view);
    assertThat(back.schedulerInfo()).isEqualTo(view.schedulerInfo());
  }
}
