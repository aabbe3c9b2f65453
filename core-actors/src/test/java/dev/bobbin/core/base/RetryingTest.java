package dev.bobbin.core.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.apache.pekko.pattern.AskTimeoutException;
import org.junit.jupiter.api.Test;

class RetryingTest {
  private final List<Duration> tries = new ArrayList<>();

  /** Times out the first {@code timeouts} tries (at once: the test needs no clock), then answers. */
  private CompletionStage<String> timingOut(Duration t, int timeouts) {
    tries.add(t);
    return tries.size() <= timeouts
        ? CompletableFuture.failedFuture(new AskTimeoutException("no answer"))
        : CompletableFuture.completedFuture("answer " + tries.size());
  }

  @Test
  void aTryWithoutAnswerIsSentAgainWithinTheTotal() throws Exception {
    String answer = Retrying.ask(t -> timingOut(t, 2), Duration.ofSeconds(10)).toCompletableFuture().get();
    assertThat(answer).isEqualTo("answer 3");
    assertThat(tries).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(2));
  }

  @Test
  void theTriesTogetherTakeNoLongerThanTheTotal() {
    assertThatThrownBy(() -> Retrying.ask(t -> timingOut(t, 99), Duration.ofMillis(5500)).toCompletableFuture().get())
        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(AskTimeoutException.class);
    assertThat(tries).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofMillis(1500));
  }

  @Test
  void anAnswerThatIsAnErrorIsNotSentAgain() {
    CompletionStage<String> r = Retrying.ask(t -> {
      tries.add(t);
      return CompletableFuture.failedFuture(new IllegalStateException("Queue q is STOPPED"));
    }, Duration.ofSeconds(10));
    assertThatThrownBy(() -> r.toCompletableFuture().get()).hasCauseInstanceOf(IllegalStateException.class);
    assertThat(tries).hasSize(1);
  }

  @Test
  void aTotalShorterThanOneTryIsOneTry() throws Exception {
    assertThat(Retrying.ask(t -> timingOut(t, 0), Duration.ofMillis(500)).toCompletableFuture().get())
        .isEqualTo("answer 1");
    assertThat(tries).containsExactly(Duration.ofMillis(500));
  }
}
