package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.NodeState;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Dead nodes forgotten through the scheduler actor, as YARN's NodesListManager removes untracked
 * inactive nodes: a LOST or DECOMMISSIONED node whose host the lists no longer track leaves the node
 * list and the journal after the removal timeout; a live one, or a tracked one, stays.
 */
class UntrackedNodesTest extends SchedulerFixture {

  @AfterEach
  void trackEveryHostAgain() {
    untrackedHost = host -> false;
  }

  private List<String> nodeIds() {
    TestProbe<SchedulerProtocol.NodesReport> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.GetNodes(probe.ref()));
    return probe.receiveMessage().nodes().stream().map(SchedulerProtocol.NodeReport::nodeId).toList();
  }

  private Write expectNodeWrite() {
    List<Write> fished = effects.journal.fishForMessage(Duration.ofSeconds(3),
        w -> w instanceof Write.MarkNode || w instanceof Write.ForgetNode
            ? FishingOutcomes.complete() : FishingOutcomes.continueAndIgnore());
    return fished.get(fished.size() - 1);
  }

  /**
   * Moves the clock past the removal timeout until the scheduler forgets {@code nodeId}: its tick
   * first has to see the node untracked, and only then does the timeout run.
   */
  private void advanceUntilForgotten(String nodeId, String keepAlive) {
    testKit.createTestProbe().awaitAssert(Duration.ofSeconds(10), Duration.ofMillis(300), () -> {
      clock.advance(UNTRACKED_REMOVAL.plusSeconds(1));
      if (keepAlive != null) heartbeat(keepAlive);
      assertThat(nodeIds()).doesNotContain(nodeId);
      return null;
    });
  }

  @Test
  void aLostNodeOfAnUntrackedHostIsForgottenAfterTheRemovalTimeoutAndATrackedOneStays() {
    untrackedHost = "a"::equals;
    start(TestingEffects.builder());
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);

    clock.advance(Duration.ofMinutes(61));
    assertThat(((Write.MarkNode) expectNodeWrite()).state()).isEqualTo(NodeState.LOST);
    assertThat(((Write.MarkNode) expectNodeWrite()).state()).isEqualTo(NodeState.LOST);
    assertThat(nodeIds()).as("not yet: the timeout runs from when it was first seen untracked")
        .containsExactlyInAnyOrder("a:1", "b:1");

    advanceUntilForgotten("a:1", null);
    assertThat(expectNodeWrite()).isEqualTo(new Write.ForgetNode("a:1"));
    assertThat(nodeIds()).containsExactly("b:1");
  }

  @Test
  void aDecommissionedUntrackedNodeIsForgottenButALiveOneNever() {
    untrackedHost = host -> true;
    start(TestingEffects.builder());
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);
    TestProbe<StatusReply<String>> probe = testKit.createTestProbe();
    scheduler.tell(new SchedulerProtocol.SetNodeState("a:1", NodeState.DECOMMISSIONED, 0, probe.ref()));
    probe.receiveMessage();
    assertThat(((Write.MarkNode) expectNodeWrite()).state()).isEqualTo(NodeState.DECOMMISSIONED);

    assertThat(nodeIds()).contains("a:1");
    advanceUntilForgotten("a:1", "b:1");

    assertThat(expectNodeWrite()).isEqualTo(new Write.ForgetNode("a:1"));
    assertThat(nodeIds()).as("b:1 heartbeats").containsExactly("b:1");
  }
}
