package dev.bobbin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bobbin.core.scheduler.SchedulerProtocol;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.pattern.StatusReply;
import org.junit.jupiter.api.Test;

/** How an AM call's failure reaches the AM: a refusal is final, a timeout is retried. */
class AmCallFailureTest {
  @Test
  void anEntityRefusalBecomesTheAmsException() throws Exception {
    SchedulerProtocol.AmOutcome<Object> outcome = RmCore.refusedOrFailed(
            new CompletionException(new StatusReply.ErrorMessage("Attempt x is not current")),
            "InvalidApplicationMasterRequestException")
        .toCompletableFuture().get();
    assertThat(outcome.exception()).isEqualTo("InvalidApplicationMasterRequestException");
    assertThat(outcome.message()).isEqualTo("Attempt x is not current");
  }

  @Test
  void anEntityThatDidNotAnswerInTimeStaysAFailureSoTheRouteAnswers503() {
    var failed = RmCore.<Object>refusedOrFailed(new CompletionException(new TimeoutException("Ask timed out")),
        "InvalidApplicationMasterRequestException").toCompletableFuture();
    assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
  }
}
