package dev.bobbin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The journal floor: what the design's journal work for a durable allocation and for a submission
 * costs with no Bobbin code around it ({@link JournalFloor}, in a JVM of its own), set against what
 * the full-path and submission goals allow on the measuring machine's cores. Like the heartbeat scenario's
 * transport floor, it says how much of a goal the design's chosen parts leave for everything else.
 */
final class JournalBench {
  /**
   * Writes kept in flight, one JVM and journal each: the more, the larger the journal's batches. The
   * scheduler may have up to 2,000 allocations in flight (bobbin.scheduler.max-allocations-in-flight);
   * the submission scenario's 16 clients keep about 16 submissions in flight.
   */
  private static final List<Integer> IN_FLIGHT = List.of(1_000, 100, 20);
  /**
   * Writes to a container after the one that starts it, as the full path measures them: its
   * completion, its launch for about half of them, and a share of one delivery record.
   */
  private static final double LATER_WRITES_PER_CONTAINER = 1.5;

  private JournalBench() {}

  record Phase(String name, long writes, double seconds, long cpuNanos, long jitNanos, long errors) {
    double rate() {
      return writes / seconds;
    }

    double cores() {
      return cpuNanos / 1e9 / seconds;
    }

    double jitCores() {
      return jitNanos / 1e9 / seconds;
    }

    /** CPU per write without the JIT compiler's threads: the floor is a lower bound. */
    double nanosPerWrite() {
      return writes == 0 ? Double.NaN : (cpuNanos - jitNanos) / (double) writes;
    }
  }

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    // The floor measures whole seconds; a shorter --duration is measured, and reported, as one.
    long measureSeconds = Math.max(1, o.durationOr(Duration.ofSeconds(15), Duration.ofSeconds(3)).toSeconds());
    long warmSeconds = o.quick() ? 2 : 10;
    List<Integer> levels = o.quick() ? List.of(100) : IN_FLIGHT;
    int cores = Runtime.getRuntime().availableProcessors();
    double allocationBudget = cores * 1e9 / 5_000;
    double submissionBudget = cores * 1e9 / 1_000;

    Report r = new Report("journal", "7. Journal floor");
    r.line("Workload: a one-member cluster with the RM's configuration and embedded H2 journal, in a JVM of its "
        + "own (-Xmx2g), and no Bobbin code but a minimal event-sourced entity under cluster sharding "
        + "(`JournalFloor`, `FloorEntity`): for each command it persists its events (about 200 bytes each) and "
        + "answers. A fixed number of writes is kept in flight (a new JVM and journal for each number): the more, "
        + "the larger the journal's batches. Each phase is measured for " + measureSeconds + " s after "
        + warmSeconds + " s of warm-up, on the JVM's CPU from /proc; the CPU per write leaves out the JIT "
        + "compiler's threads, so it is a lower bound." + RmProcess.extraOptionsNote()).blank();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("in flight", "phase", "writes/s", "CPU", "CPU per write (no JIT)", "errors"));
    List<List<String>> floors = new ArrayList<>();
    floors.add(List.of("in flight", "per durable allocation", "per submission"));
    long errors = 0;
    Map<Integer, Path> recordings = new LinkedHashMap<>();
    for (int inFlight : levels) {
      Path dir = work.resolve("in-flight-" + inFlight);
      Path jfr = o.jfr() ? dir.resolve("journal-floor.jfr") : null;
      Map<String, Phase> phases = measure(dir, inFlight, warmSeconds, measureSeconds, jfr);
      if (jfr != null) recordings.put(inFlight, jfr);
      for (Phase p : phases.values()) {
        say.accept(String.format(Locale.ROOT, "journal floor, %d in flight, %s: %.0f writes/s, %.2f cores (JIT %.2f), %s per write",
            inFlight, p.name(), p.rate(), p.cores(), p.jitCores(), Report.ms(p.nanosPerWrite())));
        rows.add(List.of(Integer.toString(inFlight), "`" + p.name() + "`", Report.num(p.rate()),
            String.format(Locale.ROOT, "%.2f cores (JIT %.2f)", p.cores(), p.jitCores()),
            Report.ms(p.nanosPerWrite()), Long.toString(p.errors())));
        errors += p.errors();
      }
      Phase created = phases.get("new");
      Phase again = phases.get("again");
      Phase application = phases.get("application");
      double perAllocation = created.nanosPerWrite() + LATER_WRITES_PER_CONTAINER * again.nanosPerWrite();
      // The queue's write is left out: a member writes a queue's waiting admissions together, one write for many.
      double perSubmission = application.nanosPerWrite() + created.nanosPerWrite() + again.nanosPerWrite();
      floors.add(List.of(Integer.toString(inFlight), Report.ms(perAllocation), Report.ms(perSubmission)));
      r.figure(inFlight + ".new.rate", created.rate()).figure(inFlight + ".again.rate", again.rate())
          .figure(inFlight + ".application.rate", application.rate())
          .figure(inFlight + ".allocation.ms", perAllocation / 1e6)
          .figure(inFlight + ".submission.ms", perSubmission / 1e6);
    }
    r.figure("errors", errors);
    r.line("Phases: `new`, an entity started for each write, set up as a Container entity (no tags, no snapshots; "
        + "its recovery reads the journal and finds nothing), and one event, as a container's allocation; `again`, "
        + "one more event to an entity `new` started, as a container's later writes or a queue's; `application`, "
        + "an entity started for each write, set up as an Application entity (its recovery asks the snapshot store "
        + "too), and two tagged events in one write, as a submission.").blank();
    r.table(rows);
    floors.add(List.of("the goal's budget for the whole RM on " + cores + " cores",
        Report.ms(allocationBudget) + " (5,000/s)", Report.ms(submissionBudget) + " (1,000/s)"));
    r.line("The design's journal work, from these phases: per durable allocation, `new` and then "
        + LATER_WRITES_PER_CONTAINER + " `again` (the completion; the launch, for about half; a share of a delivery "
        + "record); per submission, `application`, `new` for its AM container, and one `again` (the application's "
        + "record of its AM container). The queue's write is left out: a member writes the admissions that wait "
        + "for a queue together, so under load each submission's share of it is small.").blank();
    r.table(floors);
    recordings.forEach((inFlight, jfr) ->
        Jfr.summarize(jfr, r, "the journal floor's JVM at " + inFlight + " in flight, every phase"));
    return r;
  }

  private static Map<String, Phase> measure(Path work, int inFlight, long warmSeconds, long measureSeconds,
      Path jfr) throws Exception {
    try (RmProcess floor = RmProcess.journalFloor(work, "2g", work.resolve("data"), warmSeconds, measureSeconds,
        inFlight, jfr)) {
      long budget = 3 * (warmSeconds + measureSeconds) + 180;
      if (!floor.process.waitFor(budget, TimeUnit.SECONDS) || floor.process.exitValue() != 0) {
        throw new IllegalStateException("the journal floor did not finish; see " + floor.log);
      }
      return parse(floor.log);
    }
  }

  /** The floor's {@code journal-floor phase=...} lines, by phase. */
  static Map<String, Phase> parse(Path log) throws IOException {
    Map<String, Phase> phases = new LinkedHashMap<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (!line.startsWith("journal-floor ")) continue;
      Map<String, String> f = new HashMap<>();
      for (String kv : line.substring("journal-floor ".length()).trim().split("\\s+")) {
        int eq = kv.indexOf('=');
        f.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
      String name = f.get("phase");
      phases.put(name, new Phase(name, Long.parseLong(f.get("writes")), Double.parseDouble(f.get("seconds")),
          Long.parseLong(f.get("cpu")), Long.parseLong(f.get("jit")), Long.parseLong(f.get("errors"))));
    }
    for (String name : List.of("new", "again", "application")) {
      if (!phases.containsKey(name)) throw new IllegalStateException("the journal floor measured no " + name + "; see " + log);
    }
    return phases;
  }
}
