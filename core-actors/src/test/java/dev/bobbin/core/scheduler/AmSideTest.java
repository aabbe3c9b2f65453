package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateResponse;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.Done;
import org.junit.jupiter.api.Test;

/** The ApplicationMasters' side of the scheduler ({@link AmProtocol}), through the scheduler actor. */
class AmSideTest extends SchedulerFixture {
  @Test
  void aCompletionIsMarkedDeliveredOnlyOnceTheAmShowsItHasItAndIsSentAgainIfItRegistersAgain() {
    Worker worker = aRunningWorker();
    String id = worker.id();
    int responseId = worker.responseId();
    heartbeat("a:1", ContainerStatus.completed(id, 0, "", GB));
    expectCompletion().answer(Done.getInstance());
    AllocateResponse withIt = null;
    for (int i = 0; i < 20 && (withIt == null || withIt.completedContainerStatuses().isEmpty()); i++) {
      withIt = allocate(responseId, List.of());
      responseId = withIt.responseId();
    }
    assertThat(withIt.completedContainerStatuses()).extracting(ContainerStatus::containerId).containsExactly(id);
    effects.apps.expectNoMessage(Duration.ofMillis(300));

    // That response never reached the AM, which registers again (its member died, say): sent again.
    registerAm();
    AllocateResponse again = allocate(0, List.of());
    assertThat(again.completedContainerStatuses()).extracting(ContainerStatus::containerId).containsExactly(id);
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
