package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.app.AppState;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/** The NodeManagers' side of the scheduler ({@link NodeSide}), through the scheduler actor. */
class NodeSideTest extends SchedulerFixture {
  @Test
  void anUnknownNodeIsToldToResync() {
    NodeHeartbeatResponse r = heartbeat("ghost:1");
    assertThat(r.nodeAction()).isEqualTo(NodeAction.RESYNC);
  }

  @Test
  void anEndedApplicationIsCleanedUpOnTheNodesItRanOnOrThatReportedItOnly() {
    registerNode("a:1", 4096);
    startAppWithAm();
    register("b:1", 4096, List.of(), List.of(APP));
    register("c:1", 4096, List.of(), List.of());

    scheduler.tell(new SchedulerProtocol.AppEnded(APP, AppState.KILLED));
    assertThat(heartbeat("a:1").applicationsToCleanup()).as("its AM ran there").containsExactly(APP);
    nmResponseId = 0;
    assertThat(heartbeat("b:1").applicationsToCleanup()).as("it reported the application").containsExactly(APP);
    nmResponseId = 0;
    assertThat(heartbeat("c:1").applicationsToCleanup()).isEmpty();
  }

  @Test
  void aNodeIsToldToCleanUpAReportedApplicationTheSchedulerDoesNotFollowOnceItSaysItEnded() {
    String betweenAttempts = "application_1795502072393_0002";
    register("b:1", 4096, List.of(), List.of(APP, betweenAttempts));
    expectPending(effects.apps, String.class).answer(true);
    expectPending(effects.apps, String.class).answer(false);

    List<String> told = new ArrayList<>();
    nmResponseId = 0;
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      told.addAll(heartbeat("b:1").applicationsToCleanup());
      assertThat(told).containsExactly(APP);
      return null;
    });
    scheduler.tell(new SchedulerProtocol.AppEnded(betweenAttempts, AppState.KILLED));
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(5), () -> {
      told.addAll(heartbeat("b:1").applicationsToCleanup());
      assertThat(told).containsExactly(APP, betweenAttempts);
      return null;
    });
  }

  @Test
  void aSilentNodeIsLostInTheJournalTooAndItsContainersAreAborted() {
    List<String> ids = anAppRunningItsAmAndAWorker();
    // The NM expiry here is an hour.
    clock.advance(Duration.ofMinutes(61));
    var lost = effects.journal.expectMessageClass(Write.MarkNode.class);
    assertThat(lost.nodeId()).isEqualTo("a:1");
    assertThat(lost.state()).isEqualTo(NodeState.LOST);
    var aborted = List.of(expectCompletion(), expectCompletion());
    assertThat(aborted).extracting(p -> p.request().containerId()).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(aborted).allSatisfy(p -> assertThat(p.request().exitStatus()).isEqualTo(ExitStatus.ABORTED));
    aborted.forEach(p -> p.answer(Done.getInstance()));
    assertThat(node(0).state()).isEqualTo(NodeState.LOST);
    assertThat(heartbeat("a:1").nodeAction()).as("a lost node must register again").isEqualTo(NodeAction.RESYNC);
  }
}
