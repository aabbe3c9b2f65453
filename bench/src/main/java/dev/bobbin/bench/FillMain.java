package dev.bobbin.bench;

import dev.bobbin.am.CommonPool;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/**
 * Fills a journal in a JVM of its own ({@link RecoveryBench} starts it): the filler is harness,
 * not the system measured, so it may run with the common pool sized for CompletableFuture
 * callbacks (see BENCHMARKS.md) without changing the bench JVM, which hosts in-process RMs.
 * Prints {@code filled EVENTS NANOS} when done.
 */
public final class FillMain {
  private FillMain() {}

  public static void main(String[] a) throws Exception {
    CommonPool.ensureParallel();
    BenchLogging.toFile(Path.of(a[0]).resolveSibling("fill.log"));
    JournalFiller.Plan plan = new JournalFiller.Plan(Integer.parseInt(a[1]),
        new Resource(Long.parseLong(a[2]), Integer.parseInt(a[3])), Integer.parseInt(a[4]), Integer.parseInt(a[5]),
        Integer.parseInt(a[6]), Integer.parseInt(a[7]), false);
    JournalFiller.Filled f = RecoveryBench.fill(Path.of(a[0]), plan, Long.parseLong(a[8]));
    System.out.println("filled " + f.events() + " " + f.nanos() + " " + f.checkpointNanos());
    System.exit(0);
  }
}
