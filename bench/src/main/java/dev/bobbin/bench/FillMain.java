package dev.bobbin.bench;

import dev.bobbin.am.CommonPool;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Fills a journal in a JVM of its own ({@link RecoveryBench} starts it): the filler is harness,
 * not the system measured, so it may run with the common pool sized for CompletableFuture
 * callbacks without changing the bench JVM, which hosts in-process RMs. Prints
 * {@code filled EVENTS NANOS CHECKPOINT_NANOS} when done.
 */
@Command(name = "fill", description = "Writes a cluster's history into a journal, for the recovery scenario.")
public final class FillMain implements Callable<Integer> {
  @Option(names = "--data-dir", paramLabel = "DIR", required = true, description = "the journal's directory")
  Path dataDir;

  @Option(names = "--nodes", paramLabel = "N", required = true)
  int nodes;

  @Option(names = "--node-memory", paramLabel = "MB", required = true)
  long nodeMemory;

  @Option(names = "--node-vcores", paramLabel = "N", required = true)
  int nodeVcores;

  @Option(names = "--apps", paramLabel = "N", required = true)
  int apps;

  @Option(names = "--containers-per-app", paramLabel = "N", required = true, description = "running containers")
  int containersPerApp;

  @Option(names = "--finished-per-app", paramLabel = "N", required = true, description = "finished containers")
  int finishedPerApp;

  @Option(names = "--window", paramLabel = "N", required = true, description = "writes in flight")
  int window;

  @Option(names = "--timeout", paramLabel = "SECONDS", required = true)
  long timeoutSeconds;

  public static void main(String[] args) {
    CommonPool.ensureParallel();
    System.exit(new CommandLine(new FillMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    BenchLogging.toFile(dataDir.resolveSibling("fill.log"));
    JournalFiller.Plan plan = new JournalFiller.Plan(nodes, new Resource(nodeMemory, nodeVcores), apps,
        containersPerApp, finishedPerApp, window, false);
    JournalFiller.Filled f = RecoveryBench.fill(dataDir, plan, timeoutSeconds);
    System.out.println("filled " + f.events() + " " + f.nanos() + " " + f.checkpointNanos());
    return 0;
  }
}
