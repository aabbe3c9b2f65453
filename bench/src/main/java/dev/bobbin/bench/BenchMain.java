package dev.bobbin.bench;

import dev.bobbin.am.CommonPool;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/** {@code bobbin bench}: runs scenarios, prints their figures and writes them to a results file. */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] argv) {
    CommonPool.ensureParallel();
    System.exit(run(Arrays.asList(argv), System.out));
  }

  /** @return 0 on success, 64 on a usage error, 1 when a scenario failed */
  public static int run(List<String> argv, PrintStream out) {
    return BenchCommand.run(argv, out, System.err);
  }

  static int runScenarios(BenchOptions o, PrintStream out) {
    try {
      results = new ArrayList<>();
      Path work = Files.createTempDirectory("bobbin-bench-");
      lastWork = work;
      BenchLogging.toFile(work.resolve("bench.log"));
      Consumer<String> say = s -> out.println("bench: " + s);
      say.accept("work directory " + work + " (RM logs in bench.log)");
      List<String> scenarios = o.scenario().equals("all") ? BenchOptions.SCENARIOS : List.of(o.scenario());
      int failures = 0;
      for (String name : scenarios) {
        BenchOptions one = o.forScenario(name);
        String loadBefore = Machine.loadAverage();
        Report r;
        try {
          Path dir = Files.createDirectories(work.resolve(name));
          r = scenario(name, one, dir, say);
        } catch (Exception e) {
          failures++;
          System.err.println("bobbin bench " + name + ": failed: " + e);
          e.printStackTrace();
          continue;
        }
        results.add(r);
        out.println();
        out.println(ResultsFile.render(r, o.command(), loadBefore, Machine.loadAverage()));
        if (o.out() != null) {
          ResultsFile.update(o.out(), r, o.command(), loadBefore, Machine.loadAverage());
          say.accept("wrote " + r.title + " to " + o.out());
        }
      }
      if (!o.jfr() && failures == 0) deleteQuietly(work);
      else say.accept("kept " + work);
      return failures == 0 ? 0 : 1;
    } catch (IOException e) {
      System.err.println("bobbin bench: " + e);
      return 1;
    }
  }

  /** The reports of the last {@link #run}, for tests. */
  static List<Report> results = List.of();

  /** The work directory of the last {@link #run}, for tests to remove what it kept. */
  static Path lastWork;

  static Report scenario(String name, BenchOptions o, Path work, Consumer<String> say) throws Exception {
    return switch (name) {
      case "scheduler" -> SchedulerBench.run(o, work, say);
      case "full-path" -> FullPathBench.run(o, work, say);
      case "heartbeats" -> HeartbeatBench.run(o, work, say);
      case "submissions" -> SubmissionBench.run(o, work, say);
      case "recovery" -> RecoveryBench.run(o, work, say);
      case "memory" -> MemoryBench.run(o, work, say);
      case "journal" -> JournalBench.run(o, work, say);
      default -> throw new IllegalArgumentException("scenario " + name + " is not implemented");
    };
  }

  /** The checkout: {@code -Dbobbin.home} as bin/bobbin sets it, else the working directory. */
  static Path home() {
    String h = System.getProperty("bobbin.home");
    return h != null ? Path.of(h) : Path.of("").toAbsolutePath();
  }

  static void deleteQuietly(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // Leaving a temporary directory behind is harmless.
    }
  }
}
