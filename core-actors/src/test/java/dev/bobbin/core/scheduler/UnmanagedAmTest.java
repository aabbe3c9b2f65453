package dev.bobbin.core.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.am.ResourceRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An application whose client runs its AM: the scheduler places nothing for the AM and still watches it. */
class UnmanagedAmTest extends SchedulerFixture {
  private void addUnmanagedAttempt() {
    scheduler.tell(new SchedulerProtocol.AttemptAdded(APP, ATTEMPT, "default", "alice", 0, GB,
        new ContainerLaunchContext(List.of(), Map.of()), 1, false, true));
  }

  @Test
  void noAmContainerIsPlacedAndTheRegisteredAmGetsItsWorkers() {
    registerNode("a:1", 4096);
    addUnmanagedAttempt();
    effects.containers.expectNoMessage(Duration.ofMillis(500));
    assertThat(registerAm().response()).isNotNull();
    allocate(0, List.of(ResourceRequest.any(1, GB, 1)));
    var worker = expectAllocation();
    assertThat(worker.request().am()).isFalse();
  }

  @Test
  void anUnmanagedAmThatNeverCallsInTimesOut() {
    registerNode("a:1", 4096);
    addUnmanagedAttempt();
    effects.containers.expectNoMessage(Duration.ofMillis(300));
    clock.advance(AM_EXPIRY.plusSeconds(1));
    var finished = expectAppWrite(Write.ReportAmFinished.class);
    assertThat(finished.attemptId()).isEqualTo(ATTEMPT);
    assertThat(finished.diagnostics()).contains("timed out");
  }
}
