package dev.bobbin.am;

/**
 * Gives the JDK's common fork-join pool at least two threads; every {@code main} calls this first.
 *
 * <p>Pekko's futures reach Java as Scala's {@code CompletableFuture} subclass, which runs even the
 * non-async callbacks ({@code whenComplete}, {@code thenApply}) on the default async executor. That
 * executor is the common pool only when its parallelism is above one; on a two-core machine it is
 * one (cores - 1), and the JDK then starts a new thread for every callback: thousands per second
 * in the scheduler, enough to make starting threads its bottleneck.
 *
 * <p>It lives here, the lowest module on Pekko that every {@code main} reaches: an AM built on this
 * library needs it as much as the RM, the NodeManager and the tools, which all depend on this one.
 */
public final class CommonPool {
  public static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  private CommonPool() {}

  /** Must run before anything touches {@code ForkJoinPool.commonPool()}; an explicit setting wins. */
  public static void ensureParallel() {
    if (System.getProperty(PARALLELISM) == null) {
      System.setProperty(PARALLELISM, Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors())));
    }
  }
}
