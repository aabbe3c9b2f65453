package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.protocol.Resource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Scenario 6, memory: the heap an RM member needs for 10,000 nodes, 10,000 applications and
 * 200,000 running containers, measured in this JVM as heap used after a full GC, before and after.
 * First the scheduler's model (the real Scheduler actor, as in scenario 1, with every container
 * placed, acknowledged and reported running by its node), then the entities (Application,
 * Container, Node and Queue actors with their state, on a journal that keeps nothing), as an upper
 * bound for a member on which all of them are awake at once.
 */
final class MemoryBench {
  private MemoryBench() {}

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    int nodes = o.nodesOr(10_000, 200);
    int apps = o.appsOr(10_000, 200);
    int containers = o.containersOr(200_000, 4_000);
    int perApp = Math.max(1, containers / apps);
    int perNode = (int) Math.max(Topology.SLOTS_PER_NODE, ((long) apps * perApp + nodes - 1) / nodes + 1);
    Resource capacity = Topology.CONTAINER.times(perNode);
    String policy = o.policiesOr(List.of("fifo")).get(0);
    boolean fair = policy.equals("fair");
    long limit = o.quick() ? 120 : 1800;
    Report r = new Report("memory", "6. Memory");

    long before = usedAfterGc();
    long model;
    long populateNanos;
    List<String> histogram;
    // What is measured is heap, not speed: nodes and AMs call every 5 s rather than 1 s, which keeps
    // building the model feasible on a small machine (the scheduler does O(nodes) work per call).
    SchedulerHarness.Setup setup = new SchedulerHarness.Setup(nodes, capacity, apps, policy, Duration.ofSeconds(5),
        Duration.ofSeconds(5));
    try (SchedulerHarness h = SchedulerHarness.start(setup, Files.createDirectories(work.resolve("snapshots")))) {
      long empty = usedAfterGc();
      long t0 = System.nanoTime();
      h.populate().get(limit, TimeUnit.SECONDS);
      say.accept("memory: " + nodes + " nodes and " + apps + " applications with their AMs in "
          + Report.seconds(System.nanoTime() - t0));
      int[] all = new int[apps];
      for (int i = 0; i < apps; i++) all[i] = i;
      h.fill(all, perApp - 1).get(limit, TimeUnit.SECONDS);
      long total = (long) apps * perApp;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limit);
      while (h.counters.markedRunning.get() < total && System.nanoTime() < deadline) Thread.sleep(100);
      populateNanos = System.nanoTime() - t0;
      say.accept("memory: " + h.counters.placed.get() + " containers placed, " + h.counters.markedRunning.get()
          + " reported running, after " + Report.seconds(populateNanos));
      model = usedAfterGc() - empty;
      histogram = histogram(12);
    }
    say.accept("memory: scheduler model " + Report.mib(model));

    long entities = -1;
    long e0 = usedAfterGc();
    CompletableFuture<JournalFiller.Filled> filled = new CompletableFuture<>();
    ActorSystem<JournalFiller.Msg> system = ActorSystem.create(JournalFiller.create(new JournalFiller.Plan(nodes,
        capacity, apps, perApp, 0, 64, true), filled), "bench-entities", entityConfig(work));
    try {
      filled.get(limit, TimeUnit.SECONDS);
      entities = usedAfterGc() - e0;
    } catch (Exception e) {
      say.accept("memory: entities not measured: " + e);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }
    say.accept("memory: entities " + Report.mib(entities));
    r.line("The scheduler's model: the Scheduler actor in this JVM (as in scenario 1, entity stubs acknowledging at "
        + "once) with " + nodes + " nodes of " + capacity + ", " + apps + " applications in " + Topology.QUEUES
        + " queues (" + (fair ? "fair" : "fifo") + ") and " + (long) apps * perApp + " containers (" + perApp
        + " per application, its AM included), every one placed, acknowledged and reported running by its node's "
        + "heartbeat (nodes and AMs call every 5 s here: the figure is heap, not speed). Heap is measured after a full GC, before and after (harness state included; it holds no copy "
        + "of the model). The entities: the same applications, containers, nodes and ten queues as live "
        + "event-sourced actors with their state, all awake at once, on a journal that keeps nothing.").blank();
    r.table(List.of(
        List.of("what", "heap"),
        List.of("**scheduler model** (nodes, applications, containers)", "**" + Report.mib(model) + "**"),
        List.of("per container (model / containers)", String.format("%,.0f bytes", (double) model / ((long) apps * perApp))),
        List.of("entities, if all were awake at once", entities < 0 ? "not measured" : Report.mib(entities)),
        List.of("scheduler model + awake entities", entities < 0 ? "n/a" : Report.mib(model + entities)),
        List.of("time to build the model (registrations, submissions, placements, running reports)",
            Report.seconds(populateNanos)),
        List.of("heap used before the scenario", Report.mib(before))));
    r.line("Largest classes on the heap with the model built (`jcmd GC.class_histogram`):").blank();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("instances", "bytes", "class"));
    for (String line : histogram) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4) rows.add(List.of(f[1], f[2], "`" + f[3] + "`"));
    }
    r.table(rows);
    double total = model + Math.max(0, entities);
    r.figure("model", model).figure("entities", entities);
    r.table(List.of(List.of("goal", "measured", "verdict"),
        List.of("≤ 4 GiB heap", Report.mib(model) + " model" + (entities < 0 ? "" : "; " + Report.mib((long) total)
            + " with every entity awake"), Report.verdict(total <= 4L << 30))));
    return r;
  }

  private static Config entityConfig(Path work) {
    return ConfigFactory.parseMap(Map.of("pekko.persistence.snapshot-store.local.dir",
            work.resolve("entity-snapshots").toString()))
        .withFallback(ConfigFactory.parseString("""
            bench-null-journal { class = "dev.bobbin.bench.NullJournal" }
            pekko {
              actor.provider = local
              loglevel = WARNING
              loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
              logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
              persistence.journal.plugin = "bench-null-journal"
              persistence.snapshot-store.plugin = "pekko.persistence.snapshot-store.local"
              coordinated-shutdown.run-by-jvm-shutdown-hook = off
            }
            """))
        .withFallback(ConfigFactory.load());
  }

  static long usedAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(300);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The top of this JVM's class histogram, via jcmd. */
  static List<String> histogram(int top) {
    List<String> out = new ArrayList<>();
    try {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(ProcessHandle.current().pid()), "GC.class_histogram").redirectErrorStream(true).start();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          if (line.trim().matches("^\\d+:.*") && out.size() < top) out.add(line);
        }
      }
      p.waitFor(60, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      out.add("0: 0 0 histogram-unavailable:" + e);
    }
    return out;
  }
}
