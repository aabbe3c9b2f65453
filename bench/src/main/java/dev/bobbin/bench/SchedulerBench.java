package dev.bobbin.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Scenario 1, the scheduler core: container allocations per second and ask-to-allocation latency,
 * at 1,000, 5,000 and 10,000 nodes with 10 queues and 1,000 applications, for the demand shapes
 * 1 × N, 5 × N/5 and 25 × N/25, under FIFO, Fair (drf, hierarchical queues) and Capacity (dominant
 * calculator, the same hierarchy).
 *
 * <p>Measured twice: the pure policy alone (one call places everything), and the Scheduler actor
 * in-process with entity stubs, while every node heartbeats once a second and every AM allocates
 * once a second, as in production. A round: the demand applications ask; the round ends when the
 * last container is placed (its Container entity asked to persist it). The NodeManagers then
 * report the containers completed and the next round starts on an empty cluster again. Each cluster
 * first runs uncounted rounds of the first shape, at least one and for a warm-up time; their rate is
 * reported apart.
 */
final class SchedulerBench {
  private SchedulerBench() {}

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    List<Integer> sizes = o.nodes() != null ? List.of(o.nodes()) : o.quick() ? List.of(200) : List.of(1000, 5000, 10000);
    int apps = o.appsOr(1000, 100);
    List<Integer> shapes = o.shape() != null ? List.of(o.shape()) : List.of(1, 5, 25);
    List<String> policies = o.policiesOr(List.of("fifo", "fair", "capacity"));
    Duration perShape = o.durationOr(Duration.ofSeconds(10), Duration.ofSeconds(1));
    // One round of a few hundred milliseconds left the scheduler's code to the JIT compiler for much
    // of the measured rounds: a cold JVM measured a half of a warm one's rate.
    Duration warmUp = o.quick() ? Duration.ofSeconds(1) : WARM_UP;
    Report r = new Report("scheduler", "1. Scheduler core");
    r.line("Workload: nodes of 8 GB / 8 vcores, containers of 1 GB / 1 vcore, " + Topology.QUEUES + " leaf queues, "
        + apps + " applications each running its AM. In shape S, S of the applications (spread over the queues) "
        + "ask for N/S containers each, N being every free slot of the cluster (8 × nodes − applications). "
        + "Fair: 10 leaves under 3 parents (`eng` weight 2 with q0–q3, `sci` q4–q6, `ops` q7–q9), every queue drf. "
        + "Capacity: the same tree (`eng` 40 %, `sci` and `ops` 30 %, leaves in equal parts), dominant calculator, "
        + "every queue's maximum the whole cluster, delay scheduling and reservations as Hadoop's defaults.")
        .blank();
    r.line("**Pure policy**: `FifoPolicy.assign`, `FairShareCalculator.compute` + `FairAssigner.assign`, or "
        + "`CapacityTree.compute` + `CapacityAssigner.assign` on read-only views, one call placing all N; the best "
        + "and the median of the timed passes.").blank();
    List<List<String>> pure = new ArrayList<>();
    pure.add(List.of("nodes", "policy", "shape", "N per pass", "passes", "allocations/s (median)", "best",
        "share computation per pass"));
    for (int nodes : sizes) {
      for (String policy : policies) {
        for (int shape : shapes) {
          PolicyBench.Result p = PolicyBench.run(nodes, apps, shape, policy,
              Math.max(TimeUnit.MILLISECONDS.toNanos(500), perShape.toNanos() / 3));
          say.accept(String.format("scheduler/pure %d nodes %s shape %d: %.0f allocations/s", nodes, policy, shape,
              p.medianRate()));
          pure.add(List.of(Integer.toString(nodes), p.policy(), shape + " × N/" + shape, Long.toString(p.placedPerRound()),
              Integer.toString(p.rounds()), Report.num(p.medianRate()), Report.num(p.bestRate()),
              policy.equals("fifo") ? "–" : Report.ms(p.shareNanos())));
          r.figure("pure." + nodes + "." + policy + "." + shape, p.medianRate());
        }
      }
    }
    r.table(pure);

    r.line("**Scheduler actor** (`Scheduler.create` with stub entities that acknowledge at once; every node "
        + "heartbeats every 1 s and every AM allocates every 1 s throughout, as the defaults have it). "
        + "Allocations/s is containers placed over the time from the first ask to the last placement; "
        + "latency is from an application's ask to the placement of each of its containers. Each cluster first "
        + "runs rounds of shape " + shapes.get(0) + ", at least one and for " + warmUp.toSeconds() + " s, that are "
        + "not counted: the JIT compiler's warm-up, whose own rate the table shows on the cluster's first row.")
        .blank();
    List<List<String>> actor = new ArrayList<>();
    actor.add(List.of("nodes", "policy", "shape", "N per round", "rounds", "allocations/s (median)", "all rounds",
        "ask→allocation p50", "p99", "cluster set-up", "warm-up: rounds, allocations/s"));
    List<List<String>> ends = new ArrayList<>();
    ends.add(List.of("nodes", "policy", "live containers", "applications ended", "handled in", "ends/s"));
    Jfr jfr = Jfr.start(o.jfr(), work.resolve("scheduler.jfr"));
    for (int nodes : sizes) {
      for (String policy : policies) {
        SchedulerHarness.Setup setup = new SchedulerHarness.Setup(nodes, Topology.NODE, apps, policy,
            Duration.ofSeconds(1), Duration.ofSeconds(1));
        Path snapshots = Files.createDirectories(work.resolve("snapshots-" + nodes + "-" + policy));
        try (SchedulerHarness h = SchedulerHarness.start(setup, snapshots)) {
          long setupNanos = h.populate().get(limit(o, 600), TimeUnit.SECONDS);
          int free = nodes * Topology.SLOTS_PER_NODE - apps;
          long warmUntil = System.nanoTime() + warmUp.toNanos();
          int warmRounds = 0;
          long warmPlaced = 0;
          long warmNanos = 0;
          boolean unfinished = false;
          List<Integer> skipped;
          for (int shape : shapes) {
            int[] demand = Topology.demandApps(shape, apps);
            int perApp = free / shape;
            List<Double> rates = new ArrayList<>();
            long placed = 0;
            long fillNanos = 0;
            long shapeStart = System.nanoTime();
            boolean timedOut = false;
            Latency lat = new Latency();
            for (int round = 0; round < 1000; round++) {
              h.askToPlaced.clear();
              SchedulerHarness.Round res;
              long placedBefore = h.counters.placed.get();
              long roundStart = System.nanoTime();
              try {
                res = h.fill(demand, perApp).get(ROUND_LIMIT_SECONDS, TimeUnit.SECONDS);
              } catch (TimeoutException e) {
                // Report what the round managed: containers placed over the time it was given.
                timedOut = true;
                long got = h.counters.placed.get() - placedBefore;
                double secs = (System.nanoTime() - roundStart) / 1e9;
                rates.add(got / secs);
                placed += got;
                fillNanos += System.nanoTime() - roundStart;
                lat.addAll(h.askToPlaced);
                say.accept(String.format("scheduler/actor: a round placed %d of %d in %.0f s; stopping this cluster",
                    got, (long) perApp * demand.length, secs));
                break;
              }
              h.drain().get(limit(o, 600), TimeUnit.SECONDS);
              if (warmRounds == 0 || System.nanoTime() < warmUntil) {
                warmRounds++;
                warmPlaced += res.placed();
                warmNanos += res.fillNanos();
                continue;
              }
              rates.add(res.placed() / (res.fillNanos() / 1e9));
              placed += res.placed();
              fillNanos += res.fillNanos();
              lat.addAll(h.askToPlaced);
              if (System.nanoTime() - Math.max(shapeStart, warmUntil) > perShape.toNanos()) break;
            }
            List<Double> sorted = new ArrayList<>(rates);
            sorted.sort(null);
            double median = sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
            say.accept(String.format("scheduler/actor %d nodes %s shape %d: %.0f allocations/s, p50 %s p99 %s",
                nodes, policy, shape, median, Report.ms(lat.percentile(50)), Report.ms(lat.percentile(99))));
            actor.add(List.of(Integer.toString(nodes), label(policy), shape + " × N/" + shape,
                Long.toString((long) perApp * shape),
                timedOut ? "unfinished after " + ROUND_LIMIT_SECONDS + " s: partial rate" : Integer.toString(rates.size()),
                Report.num(median), Report.num(fillNanos == 0 ? Double.NaN : placed / (fillNanos / 1e9)),
                Report.ms(lat.percentile(50)), Report.ms(lat.percentile(99)), Report.seconds(setupNanos),
                shape == shapes.get(0) ? warmRounds + ", " + Report.num(warmNanos == 0 ? Double.NaN
                    : warmPlaced / (warmNanos / 1e9)) : "–"));
            r.figure("actor." + nodes + "." + policy + "." + shape, median);
            if (shape == shapes.get(0)) r.figure("actor." + nodes + "." + policy + ".warmUpRounds", warmRounds);
            r.figure("actor." + nodes + "." + policy + "." + shape + ".p99ms", lat.percentile(99) / 1e6);
            if (timedOut) {
              unfinished = true;
              skipped = shapes.subList(shapes.indexOf(shape) + 1, shapes.size());
              for (int rest : skipped) {
                actor.add(List.of(Integer.toString(nodes), label(policy), rest + " × N/" + rest,
                    Long.toString((long) (free / rest) * rest), "not run (previous round unfinished)", "–", "–", "–",
                    "–", Report.seconds(setupNanos), "–"));
              }
              break;
            }
          }
          if (!unfinished) ends.add(endAll(h, o, nodes, policy, shapes.get(0), free, r, say));
        }
      }
    }
    r.table(actor);
    r.line("**Application ends**: after the rounds, the cluster is filled once more (shape "
        + shapes.get(0) + ", not drained) and every application is killed at once; the time is from the first "
        + "`AppEnded` sent to the scheduler's answer to a message sent after the last, with heartbeats and "
        + "allocate calls going on as before.").blank();
    r.table(ends);
    if (jfr != null) jfr.summarizeInto(r, "the scheduler scenario (pure and actor runs)");
    goals(r, sizes, policies, shapes);
    return r;
  }

  /** Fills the cluster, then kills every application at once and times the scheduler's handling of the ends. */
  private static List<String> endAll(SchedulerHarness h, BenchOptions o, int nodes, String policy, int shape,
      int free, Report r, Consumer<String> say) throws Exception {
    int apps = h.setup.apps();
    SchedulerHarness.Round full = h.fill(Topology.demandApps(shape, apps), free / shape)
        .get(ROUND_LIMIT_SECONDS, TimeUnit.SECONDS);
    long start = System.nanoTime();
    long took = h.endAll().get(limit(o, 600), TimeUnit.SECONDS) - start;
    double rate = apps / (took / 1e9);
    say.accept(String.format("scheduler/actor %d nodes %s: %d application ends in %s (%.0f/s)", nodes, policy, apps,
        Report.ms(took), rate));
    r.figure("ends." + nodes + "." + policy, rate);
    return List.of(Integer.toString(nodes), label(policy), Long.toString(full.placed() + apps),
        Integer.toString(apps), Report.ms(took), Report.num(rate));
  }

  /** How the tables name a policy. */
  static String label(String policy) {
    return switch (policy) {
      case "fair" -> "fair (drf)";
      case "capacity" -> "capacity (dominant)";
      default -> policy;
    };
  }

  private static final Duration WARM_UP = Duration.ofSeconds(10);

  /** A fill round that takes longer is cut short and reported as a partial rate. */
  static final long ROUND_LIMIT_SECONDS = 180;

  private static long limit(BenchOptions o, long full) {
    return o.quick() ? 120 : full;
  }

  private static void goals(Report r, List<Integer> sizes, List<String> policies, List<Integer> shapes) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("goal", "policy", "worst shape (actor)", "verdict"));
    for (int nodes : sizes) {
      double goal = nodes <= 1000 ? 40_000 : nodes >= 10_000 ? 10_000 : Double.NaN;
      if (Double.isNaN(goal)) continue;
      for (String policy : policies) {
        double worst = Double.MAX_VALUE;
        for (int s : shapes) {
          Double v = r.figures.get("actor." + nodes + "." + policy + "." + s);
          if (v != null && !v.isNaN()) worst = Math.min(worst, v);
        }
        if (worst == Double.MAX_VALUE) worst = 0;
        rows.add(List.of("≥ " + Report.num(goal) + " allocations/s at " + nodes + " nodes", policy, Report.num(worst),
            Report.verdict(worst >= goal)));
      }
    }
    if (rows.size() > 1) r.table(rows);
  }
}
