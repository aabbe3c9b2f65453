package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.config.fair.FairSetup;
import dev.bobbin.core.policy.LeafApps;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.core.policy.fair.FairView;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.junit.jupiter.api.Test;

/** A moved application's containers, AM and asks count in its new queue from then on. */
class QueueMoveTest extends SchedulerFixture {

  private void startFair() {
    var root = ConfigFactory.parseString("bobbin.scheduler.fair { queues { default {}, b {} } }").resolve();
    SchedulerSettings fair = new SchedulerSettings(SchedulerPolicy.FAIR, List.of("default"), 1024, 1, 8192, 4,
        Duration.ofMillis(100), 2000, 0.5);
    start(TestingEffects.builder(), fair, new FairSetup(FairSchedulerConfig.load(root), FairGlobalSettings.from(root)));
  }

  private Map<String, LeafApps> leaves() {
    TestProbe<SchedulerView> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetView(probe.ref()));
    return ((FairView) probe.receiveMessage()).leaves();
  }

  @Test
  void aMovedApplicationsUsageAndAsksFollowItToItsNewQueue() {
    startFair();
    Worker worker = aRunningWorker();
    assertThat(leaves().get("root.default").containers()).isEqualTo(2);

    scheduler.tell(new SchedulerProtocol.QueueMoved(APP, "b"));
    // The AM asks for two more after the move, too big for what a:1 has free: they wait in b.
    allocate(worker.responseId(), List.of(ResourceRequest.any(1, new Resource(4096, 1), 2)));

    Map<String, LeafApps> after = leaves();
    assertThat(after).doesNotContainKey("root.default");
    LeafApps b = after.get("root.b");
    assertThat(b.containers()).isEqualTo(2);
    assertThat(b.amUsed()).isEqualTo(GB);
    assertThat(b.active()).isEqualTo(1);
    assertThat(b.pendingContainers()).isEqualTo(2);
  }

  @Test
  void aMoveOfAnApplicationTheSchedulerDoesNotFollowChangesNothing() {
    startFair();
    aRunningWorker();
    scheduler.tell(new SchedulerProtocol.QueueMoved("application_1700000000000_0099", "b"));
    assertThat(leaves()).containsOnlyKeys("root.default");
  }

  @Test
  void aLeafPlacementMadeAtRunTimeIsAMoveTargetAndAParentOrUnknownQueueIsNot() {
    startFair();
    // Placement put this application in a queue of its user's, which the configuration does not name.
    scheduler.tell(new SchedulerProtocol.AttemptAdded("application_1700000000000_0002",
        "appattempt_1700000000000_0002_000001", "users.carol", "carol", 0, GB,
        new ContainerLaunchContext(List.of("am"), Map.of()), 1));

    assertThat(moveTarget("root.users.carol")).isEqualTo(new SchedulerProtocol.MoveTarget("root.users.carol", null));
    assertThat(moveTarget("users.carol").queue()).isEqualTo("root.users.carol");
    assertThat(moveTarget("users").refusal()).isEqualTo("Target queue users not found or is not a leaf queue.");
    assertThat(moveTarget("root.nobody").refusal())
        .isEqualTo("Target queue root.nobody not found or is not a leaf queue.");
  }

  private SchedulerProtocol.MoveTarget moveTarget(String queue) {
    TestProbe<SchedulerProtocol.MoveTarget> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetMoveTarget(queue, probe.ref()));
    return probe.receiveMessage();
  }
}
