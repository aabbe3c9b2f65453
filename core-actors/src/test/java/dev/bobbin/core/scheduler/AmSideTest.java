package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/** The ApplicationMasters' side of the scheduler ({@link AmProtocol}), through the scheduler actor. */
class AmSideTest extends SchedulerFixture {
  @Test
  void aCompletionIsMarkedDeliveredOnlyOnceTheAmShowsItHasItAndIsSentAgainIfTheAmAsksAgain() {
    Worker worker = aRunningWorker();
    String id = worker.id();
    int responseId = worker.responseId();
    heartbeat("a:1", ContainerStatus.completed(id, 0, "", GB));
    expectCompletion().answer(Done.getInstance());
    AllocateResponse withIt = null;
    int askedWith = responseId;
    for (int i = 0; i < 20 && (withIt == null || withIt.completedContainerStatuses().isEmpty()); i++) {
      askedWith = responseId;
      withIt = allocate(responseId, List.of());
      responseId = withIt.responseId();
    }
    assertThat(withIt.completedContainerStatuses()).extracting(ContainerStatus::containerId).containsExactly(id);
    effects.apps.expectNoMessage(Duration.ofMillis(300));

    // That response never reached the AM (the member relaying it died, say), and a register the AM
    // sent long ago arrives late: the AM asks again as before, and gets it again.
    registerAm();
    AllocateResponse again = allocate(askedWith, List.of());
    assertThat(again).isEqualTo(withIt);
    effects.apps.expectNoMessage(Duration.ofMillis(300));
    allocate(again.responseId(), List.of());
    var delivered = expectAppWrite(Write.RecordDeliveries.class);
    assertThat(delivered.attemptId()).isEqualTo(ATTEMPT);
    assertThat(delivered.containerIds()).containsExactly(id);
    // Asking again with nothing new delivered records nothing.
    allocate(again.responseId() + 1, List.of());
    effects.apps.expectNoMessage(Duration.ofMillis(300));
    effects.containers.expectNoMessage(Duration.ofMillis(300));
  }

  @Test
  void aLateRegisterAfterSevenAllocatesLeavesTheResponseIdsAndTheAllocationsAsTheyWere() {
    registerNode("a:1", 4096);
    startAppWithAm();
    AllocateResponse r = allocate(0, List.of(ResourceRequest.any(1, GB, 1)));
    var worker = expectAllocation();
    for (int i = 0; i < 6; i++) r = allocate(r.responseId(), List.of());
    assertThat(r.responseId()).isEqualTo(7);

    // The register the AM sent first, to a member that was cut off, reaches the scheduler now.
    var late = registerAm();
    assertThat(late.exception()).isNull();
    assertThat(late.response().queue()).isEqualTo("default");

    worker.answer(Done.getInstance());
    AllocateResponse next = allocateUntilAllocated(7, 1);
    assertThat(next.allocatedContainers()).extracting(Container::id).containsExactly(worker.request().containerId());
  }

  @Test
  void anAllocateRetriedWithTheSameIdGetsTheSameAnswerAndAnIdOutOfStepIsRefused() {
    registerNode("a:1", 4096);
    startAppWithAm();
    var worker = askOneWorker();
    worker.answer(Done.getInstance());
    int before = 1;
    AllocateResponse withIt = allocate(before, List.of());
    for (int i = 0; i < 20 && withIt.allocatedContainers().isEmpty(); i++) {
      before = withIt.responseId();
      withIt = allocate(before, List.of());
    }
    assertThat(withIt.allocatedContainers()).hasSize(1);

    // The AM switched members mid-call: it asks again with the id it had, and nothing is allocated twice.
    AllocateResponse replayed = allocate(before, List.of());
    assertThat(replayed).isEqualTo(withIt);
    effects.containers.expectNoMessage(Duration.ofMillis(300));

    var stale = allocateCall(before - 1, List.of(), List.of());
    assertThat(stale.exception()).isEqualTo("InvalidApplicationMasterRequestException");
    assertThat(stale.message()).contains("expect responseId to be " + withIt.responseId() + ", but get " + (before - 1));
    assertThat(allocate(withIt.responseId(), List.of()).allocatedContainers()).isEmpty();
  }

  @Test
  void theAmHearsTheClusterHeadroomAndItsUsableNodes() {
    registerNode("a:1", 4096);
    registerNode("b:1", 4096);
    startAppWithAm();
    int[] responseId = {0};
    testKit.createTestProbe().awaitAssert(() -> {
      AllocateResponse r = allocate(responseId[0], List.of());
      responseId[0] = r.responseId();
      // Two nodes of 4 GB and 8 vcores, less the AM's 1 GB and 1 vcore.
      assertThat(r.limit()).isEqualTo(new Resource(7168, 15));
      assertThat(r.numClusterNodes()).isEqualTo(2);
      return null;
    });
  }

  @Test
  void allocateBeforeRegisteringAsksTheAmToRegister() {
    registerNode("a:1", 4096);
    addAttempt();
    assertThat(allocateCall(0, List.of(), List.of()).exception()).isEqualTo("ApplicationMasterNotRegisteredException");
  }

  @Test
  void aWriteThatGotNoAnswerIsSentAgainUntilItLands() {
    int[] tries = {0};
    start(TestingEffects.builder().writes(w -> {
      if (w instanceof Write.AssignAmContainer && tries[0]++ == 0) {
        return java.util.concurrent.CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("no"));
      }
      return java.util.concurrent.CompletableFuture.completedFuture(Done.getInstance());
    }));
    registerNode("a:1", 4096);
    startAppWithAm();
    // Sent again an ask timeout later, and then acknowledged: not a third time.
    var again = effects.apps.expectMessageClass(Write.AssignAmContainer.class, Duration.ofSeconds(6));
    assertThat(again.allocation().attemptId()).isEqualTo(ATTEMPT);
    effects.apps.expectNoMessage(Duration.ofSeconds(4));
  }
}
