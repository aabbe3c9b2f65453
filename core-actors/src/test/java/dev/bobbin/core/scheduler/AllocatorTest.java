package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/** Scheduling passes and the writes of what they place ({@link Allocator}), through the scheduler actor. */
class AllocatorTest extends SchedulerFixture {
  @Test
  void theAmIsLaunchedOnlyAfterItsContainerIsDurable() {
    registerNode("a:1", 4096);
    startAppWithAm();
  }

  @Test
  void inFlightAllocationsCountAgainstTheNodeSoItIsNeverOverCommitted() {
    registerNode("a:1", 3072);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 4)));
    // 3 GB node, 1 GB AM: room for two more, even though neither write has been acknowledged yet.
    List<TestingEffects.Pending<ContainerEntity.Allocation, Done>> pending = new ArrayList<>();
    pending.add(expectAllocation());
    pending.add(expectAllocation());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    heartbeat("a:1");
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // Nothing reaches the AM before the writes are durable.
    assertThat(allocate(1, List.of()).allocatedContainers()).isEmpty();
    pending.forEach(a -> a.answer(Done.getInstance()));
    AllocateResponse delivered = allocateUntilAllocated(2, 2);
    assertThat(delivered.allocatedContainers()).extracting(c -> c.id())
        .containsExactlyInAnyOrderElementsOf(pending.stream().map(a -> a.request().containerId()).toList());
    assertThat(delivered.allocatedContainers()).allSatisfy(c -> assertThat(c.containerToken()).isNotBlank());
  }

  @Test
  void aPassPlacesNoMoreThanTheAllocationsInFlightAllowAndGoesOnAsWritesComplete() {
    start(TestingEffects.builder(), fifoWithInFlightBound(2), null);
    registerNode("a:1", 8192);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 5)));
    var first = expectAllocation();
    var second = expectAllocation();
    heartbeat("a:1");
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // Each answered write lets one more through; the rest wait as pending asks.
    first.answer(Done.getInstance());
    var third = expectAllocation();
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    second.refuse("journal unavailable");
    third.answer(Done.getInstance());
    var rest = List.of(expectAllocation(), expectAllocation());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // The failed write is asked for again: three more in all, never more than two at once.
    rest.forEach(a -> a.answer(Done.getInstance()));
    expectAllocation().answer(Done.getInstance());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anAllocationWhoseWriteGotNoAnswerIsWithdrawnAndAskedForAgain() {
    registerNode("a:1", 8192);
    startAppWithAm();
    var unanswered = askOneWorker();
    // No answer within the ask timeout: the write may still land, so the entity is told to end the
    // container, and the ask is placed again under a new id.
    unanswered.timeOut();
    assertThat(expectContainerWrite(Write.Withdraw.class).containerId()).isEqualTo(unanswered.request().containerId());
    heartbeat("a:1");
    var again = expectAllocation();
    assertThat(again.request().containerId()).isNotEqualTo(unanswered.request().containerId());
  }

  @Test
  void aRefusedAllocationIsNotWithdrawnButAskedForAgain() {
    registerNode("a:1", 8192);
    startAppWithAm();
    var refused = askOneWorker();
    // The entity answered: nothing was written, so there is nothing to withdraw.
    refused.refuse("Container id is already allocated");
    heartbeat("a:1");
    var again = expectAllocation();
    assertThat(again.request().containerId()).isNotEqualTo(refused.request().containerId());
  }

  @Test
  void aThrottledSchedulerWaitsUntilHalfTheBoundIsFreeBeforeItsNextPass() {
    start(TestingEffects.builder(), fifoWithInFlightBound(4), null);
    registerNode("a:1", 8192);
    startAppWithAm();
    allocate(0, List.of(ResourceRequest.any(1, GB, 6)));
    var firstFour = List.of(expectAllocation(), expectAllocation(), expectAllocation(), expectAllocation());
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // One answered write is not worth a pass (under fair, O(apps x containers)) for one placement.
    firstFour.get(0).answer(Done.getInstance());
    heartbeat("a:1");
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    // At half the bound the next pass places what fits under it again: the last two.
    firstFour.get(1).answer(Done.getInstance());
    expectAllocation();
    expectAllocation();
    effects.containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void anAmContainerWhoseStartFailedCompletesAndItsAttemptHearsWhy() {
    start(TestingEffects.builder().launch(l -> java.util.concurrent.CompletableFuture.completedFuture(
        java.util.Optional.of("InvalidToken: expired"))));
    registerNode("a:1", 4096);
    addAttempt();
    var am = expectAllocation();
    am.answer(Done.getInstance());
    effects.launches.receiveMessage();
    expectAppWrite(Write.AssignAmContainer.class);
    var failed = expectCompletion();
    assertThat(failed.request().exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.INVALID);
    assertThat(failed.request().diagnostics()).isEqualTo("AM container failed to launch: InvalidToken: expired");
    failed.answer(Done.getInstance());
    var finished = expectAppWrite(Write.ReportAmFinished.class);
    assertThat(finished.attemptId()).isEqualTo(ATTEMPT);
    assertThat(finished.exitStatus()).isEqualTo(dev.bobbin.protocol.ExitStatus.INVALID);
  }
}
