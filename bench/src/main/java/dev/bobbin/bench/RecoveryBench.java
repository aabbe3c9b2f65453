package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.core.scheduler.CheckpointWriter;
import dev.bobbin.persistence.JournalConfig;
import dev.bobbin.persistence.JournalSchema;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.client.CallException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Scenario 5, recovery: a journal holding 10,000 running applications and 100,000 running
 * containers (written through the real entities, {@link JournalFiller}), then an RM member started
 * on it in its own JVM, timed from process start until it answers {@code /ws/v1/cluster/info},
 * until a new submission is accepted (which needs the recovered scheduler), and until the
 * scheduler logged that it finished reading the journal.
 */
final class RecoveryBench {
  private RecoveryBench() {}

  static Report run(BenchOptions o, Path work, Consumer<String> say) throws Exception {
    int apps = o.appsOr(10_000, 200);
    int containers = o.containersOr(100_000, 2_000);
    int perApp = Math.max(1, containers / apps);
    int nodes = o.nodesOr(1_000, 20);
    long perNode = ((long) apps * perApp + nodes - 1) / nodes;
    Resource capacity = Topology.CONTAINER.times((int) Math.max(Topology.SLOTS_PER_NODE, perNode));
    Path data = work.resolve("rm-data");
    Report r = new Report("recovery", "5. Recovery");

    // As many finished containers as running ones: history that the checkpoint leaves out.
    int finishedPerApp = perApp;
    say.accept("recovery: writing " + apps + " applications, " + apps * perApp + " running and " + apps * finishedPerApp
        + " finished containers on " + nodes + " nodes through the entities, then the scheduler's checkpoint");
    JournalFiller.Filled filled = fillInChild(work, data, new JournalFiller.Plan(nodes, capacity, apps, perApp,
        finishedPerApp, 32, false), o.quick() ? 300 : 3600);
    long journalBytes = size(data.resolve("journal"));
    say.accept(String.format("recovery: %d events in %.1f s (%.0f/s), checkpoint in %.1f s, journal %s",
        filled.events(), filled.nanos() / 1e9, filled.events() / (filled.nanos() / 1e9),
        filled.checkpointNanos() / 1e9, Report.mib(journalBytes)));

    Path jfr = o.jfr() ? work.resolve("rm-recovery.jfr") : null;
    long wallStart = System.currentTimeMillis();
    try (RmProcess rm = RmProcess.start(work, "rm", new RmConfig(false, o.auth()), data, "2g", jfr)) {
      long limit = o.quick() ? 180 : 900;
      long http = rm.awaitHttp(limit);
      if (http < 0) throw new IllegalStateException("RM did not answer; see " + rm.log);
      long submitted = -1;
      String lastError = "";
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limit);
      var rest = BenchHttp.rm(rm.httpPort, rm.user, Duration.ofSeconds(60));
      while (submitted < 0 && System.nanoTime() < deadline && rm.process.isAlive()) {
        try {
          BenchHttp.submit(rest, "q0", "sim-am");
          submitted = System.nanoTime();
        } catch (CallException e) {
          lastError = e.getMessage();
          Thread.sleep(100);
        }
      }
      if (submitted < 0) throw new IllegalStateException("no submission accepted: " + lastError + "; see " + rm.log);
      String started = null;
      for (int i = 0; i < 600 && started == null; i++) {
        started = rm.logLine(l -> l.contains("Scheduler starting with epoch"));
        if (started == null) Thread.sleep(100);
      }
      double toHttp = (http - rm.startedNanos) / 1e9;
      double toSubmit = (submitted - rm.startedNanos) / 1e9;
      double toScheduler = started == null ? Double.NaN : (logMillis(started, wallStart)) / 1e3;
      long rss = rm.residentBytes();
      say.accept(String.format("recovery: HTTP after %.1f s, first submission accepted after %.1f s, scheduler "
          + "recovered after %.1f s", toHttp, toSubmit, toScheduler));
      r.line("Journal: " + apps + " running applications (submitted, AM container assigned, AM registered; "
          + "in " + Topology.QUEUES + " queues), " + apps * perApp + " running containers (" + perApp
          + " per application, the first its AM) and " + apps * finishedPerApp + " finished ones (ran, completed, "
          + "completion delivered) on " + nodes + " nodes, written through the real entities with "
          + "their default snapshotting (every 100 events): " + filled.events() + " events, embedded H2 journal of "
          + Report.mib(journalBytes) + String.format(" (written in %.0f s, %.0f events/s).", filled.nanos() / 1e9,
              filled.events() / (filled.nanos() / 1e9))
          + String.format(" Then the scheduler's checkpoint, as its writer would after the writes settled "
              + "(%.1f s): it keeps what is live and leaves the finished containers out, so a recovery reads it "
              + "and no event; in a running cluster the events of about the last checkpoint interval (10 s by "
              + "default) come after it, and of up to 30 s more just after a journal write failed.",
              filled.checkpointNanos() / 1e9)
          + " Then `bobbin rm` (its own JVM, -Xmx2g, fifo) starts on it; times are from the process start, JVM "
          + "start-up included. No NodeManager re-registers, so the scheduler's work-preserving wait (10 s) "
          + "follows, which the figures do not include." + RmProcess.experimentNote()).blank();
      r.table(List.of(
          List.of("milestone", "time after process start"),
          List.of("`GET /ws/v1/cluster/info` answers", String.format("%.1f s", toHttp)),
          List.of("**a new application is accepted** (new-application + submit; needs the recovered scheduler)",
              String.format("**%.1f s**", toSubmit)),
          List.of("the scheduler logged its journal recovery", Double.isNaN(toScheduler) ? "not seen"
              : String.format("%.1f s: `%s`", toScheduler, started.substring(started.indexOf(" - ") + 3))),
          List.of("what the scheduler read", logged(rm, "Scheduler checkpoint at ordering") + "; "
              + logged(rm, "Journal scan folded")),
          List.of("RM resident memory then", Report.mib(rss))));
      r.figure("http", toHttp).figure("submit", toSubmit).figure("scheduler", toScheduler);
      double serve = Math.max(toHttp, toSubmit);
      r.table(List.of(List.of("goal", "measured", "verdict"),
          List.of("serving again ≤ 10 s with " + apps + " applications and " + apps * perApp + " containers",
              String.format("%.1f s", serve), Report.verdict(serve <= 10))));
    }
    if (jfr != null) Jfr.summarize(jfr, r, "the restarted RM process");
    return r;
  }

  /** {@link #fill} in a JVM of its own ({@link FillMain}). */
  static JournalFiller.Filled fillInChild(Path work, Path data, JournalFiller.Plan p, long timeoutSeconds)
      throws Exception {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
        "-Djava.util.concurrent.ForkJoinPool.common.parallelism=4", "-cp", System.getProperty("java.class.path"),
        FillMain.class.getName(), "--data-dir", data.toAbsolutePath().toString(),
        "--nodes", Integer.toString(p.nodes()), "--node-memory", Long.toString(p.nodeCapacity().memory()),
        "--node-vcores", Integer.toString(p.nodeCapacity().vCores()), "--apps", Integer.toString(p.apps()),
        "--containers-per-app", Integer.toString(p.containersPerApp()),
        "--finished-per-app", Integer.toString(p.finishedPerApp()), "--window", Integer.toString(p.window()),
        "--timeout", Long.toString(timeoutSeconds));
    Path out = work.resolve("fill.out");
    Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    try {
      if (!proc.waitFor(timeoutSeconds + 60, TimeUnit.SECONDS)) throw new IllegalStateException("fill timed out");
    } finally {
      proc.destroyForcibly();
    }
    for (String line : Files.readAllLines(out)) {
      if (line.startsWith("filled ")) {
        String[] f = line.split(" ");
        return new JournalFiller.Filled(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]));
      }
    }
    throw new IllegalStateException("fill failed (exit " + proc.exitValue() + "); see " + out + " and fill.log");
  }

  /** Writes the history into a fresh embedded journal under {@code data}, then the scheduler's checkpoint. */
  static JournalFiller.Filled fill(Path data, JournalFiller.Plan plan, long timeoutSeconds) throws Exception {
    Config user = ConfigFactory.parseMap(Map.of("bobbin.data-dir", data.toAbsolutePath().toString()))
        .withFallback(ConfigFactory.parseString("""
            pekko.actor.provider = local
            pekko.loglevel = WARNING
            pekko.loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
            pekko.logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
            pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
            """));
    Config withDefaults = user.withFallback(ConfigFactory.defaultReference()).resolve();
    Config full = JournalConfig.overlay(withDefaults, data.toAbsolutePath()).withFallback(withDefaults).resolve();
    CompletableFuture<JournalFiller.Filled> done = new CompletableFuture<>();
    ActorSystem<JournalFiller.Msg> system = null;
    try {
      Files.createDirectories(data);
      // The schema first, from a system with nothing else in it.
      ActorSystem<Void> schema = ActorSystem.create(org.apache.pekko.actor.typed.javadsl.Behaviors.empty(),
          "bench-schema", full);
      try {
        JournalSchema.ensure(schema).toCompletableFuture().get(60, TimeUnit.SECONDS);
      } finally {
        schema.terminate();
        schema.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
      system = ActorSystem.create(JournalFiller.create(plan, done), "bench-fill", full);
      JournalFiller.Filled filled = done.get(timeoutSeconds, TimeUnit.SECONDS);
      long checkpointStart = System.nanoTime();
      CheckpointWriter.writeQuiescent(system).toCompletableFuture().get(timeoutSeconds, TimeUnit.SECONDS);
      return new JournalFiller.Filled(filled.events(), filled.nanos(), System.nanoTime() - checkpointStart);
    } finally {
      if (system != null) {
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  /** The message of the RM's first log line containing {@code text}, quoted, or that it is not there. */
  private static String logged(RmProcess rm, String text) {
    String line = rm.logLine(l -> l.contains(text));
    return line == null ? "no \"" + text + "\" logged" : "`" + line.substring(line.indexOf(" - ") + 3).strip() + "`";
  }

  /** Milliseconds from {@code wallStart} to the time a log line starts with (HH:mm:ss.SSS, local). */
  private static long logMillis(String line, long wallStart) {
    try {
      LocalTime t = LocalTime.parse(line.substring(0, 12));
      LocalTime s = java.time.Instant.ofEpochMilli(wallStart).atZone(ZoneId.systemDefault()).toLocalTime();
      long ms = java.time.Duration.between(s, t).toMillis();
      return ms < 0 ? ms + TimeUnit.DAYS.toMillis(1) : ms;
    } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
      return -1;
    }
  }

  static long size(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      return -1;
    }
  }
}
