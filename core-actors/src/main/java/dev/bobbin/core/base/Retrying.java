package dev.bobbin.core.base;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Asks again when a try gets no answer in time, until an overall deadline.
 *
 * <p>A message to an entity or singleton on a member that has just died is lost, not refused:
 * the sender's region still routes to the dead member until the cluster removes it. Waiting out
 * the whole ask timeout for that one message made a client wait 10 s where the failover took 6-8.
 * Sending again after a short try reaches the entity once it runs elsewhere. Only for commands
 * that an entity answers the same way when it gets them twice.
 */
public final class Retrying {
  /** Long enough for an entity to start and recover on a busy member; short against a failover. */
  static final Duration TRY = Duration.ofSeconds(2);

  private Retrying() {}

  /**
   * @param ask one try: asks with the timeout it is given
   * @param total how long all tries together may take: as many tries of {@link #TRY} as fit
   */
  public static <T> CompletionStage<T> ask(Function<Duration, CompletionStage<T>> ask, Duration total) {
    return attempt(ask, total, (int) Math.max(1, (total.toNanos() + TRY.toNanos() - 1) / TRY.toNanos()));
  }

  private static <T> CompletionStage<T> attempt(Function<Duration, CompletionStage<T>> ask, Duration left,
      int tries) {
    Duration thisTry = tries == 1 || left.compareTo(TRY) < 0 ? left : TRY;
    return ask.apply(thisTry).exceptionallyCompose(e -> tries > 1 && isTimeout(e)
        ? attempt(ask, left.minus(thisTry), tries - 1)
        : CompletableFuture.failedFuture(e));
  }

  private static boolean isTimeout(Throwable e) {
    return cause(e) instanceof TimeoutException;
  }

  /** What an ask failed with: a stage's failure, as its callbacks see it, unwrapped. */
  public static Throwable cause(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
