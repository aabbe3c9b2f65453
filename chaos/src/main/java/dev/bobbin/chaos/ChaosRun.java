package dev.bobbin.chaos;

import dev.bobbin.protocol.client.CallException;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One chaos run: start the cluster, stream applications while faults are injected one at a time,
 * stop submitting, let every application end (bounded by {@code --drain}), judge, tear down.
 */
final class ChaosRun {
  private static final Duration SETTLE = Duration.ofSeconds(5);
  private static final Duration PROGRESS = Duration.ofSeconds(10);
  private static final Duration SUBMITTER_STOP = Duration.ofSeconds(30);
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(5);
  private static final String LAUNCHER_MAIN = "dev/bobbin/launcher/Main.class";

  private final ChaosOptions options;
  private final PrintStream out;
  private final long started = System.nanoTime();
  private final List<String> notes = new ArrayList<>();
  /** {@code --faults} without those this host cannot inject. */
  private FaultPlan.Spec faults;

  ChaosRun(ChaosOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  ChaosReport run() throws IOException {
    Path workDir = workDir();
    out.println("bobbin chaos: " + options.describe());
    out.println("work dir: " + workDir);
    String classpath;
    try {
      classpath = classpath();
    } catch (StartupException e) {
      return ChaosReport.startupFailed(options.describe(), workDir, e.getMessage(), elapsedMs());
    }
    Random seeds = new Random(options.seed());
    ClusterClients clients = new ClusterClients();
    Optional<MemberNetwork> network = network();
    try (Cluster cluster = new Cluster(options, workDir, classpath, clients, new Random(seeds.nextLong()), network)) {
      try {
        cluster.start(line -> out.println("[" + elapsed() + "] " + line));
      } catch (StartupException e) {
        return ChaosReport.startupFailed(options.describe(), workDir, e.getMessage(), elapsedMs());
      }
      return exercise(cluster, clients, classpath, seeds);
    } finally {
      out.println("[" + elapsed() + "] cluster stopped");
    }
  }

  private ChaosReport exercise(Cluster cluster, ClusterClients clients, String classpath, Random seeds) {
    AppTracker tracker = new AppTracker();
    InvariantChecker checker = new InvariantChecker();
    Submitter submitter = new Submitter(cluster, clients, tracker, new Random(seeds.nextLong()), classpath, options);
    try (Watchers watchers = new Watchers(cluster, clients, checker, tracker, new Random(seeds.nextLong()))) {
      watchers.start();
      long steadyStart = System.nanoTime();
      watchers.every(PROGRESS, () -> progress(cluster, tracker, checker));
      AtomicBoolean submitting = new AtomicBoolean(true);
      Thread stream = new Thread(() -> submitter.stream(options.appsPerMinute(), submitting::get), "chaos-submit");
      stream.setDaemon(true);
      stream.start();

      FaultPlan plan = FaultPlan.build(faults, options.duration(), options.faultInterval(),
          new Random(seeds.nextLong()));
      Random targets = new Random(seeds.nextLong());
      AmKiller amKiller = new AmKiller(cluster, clients, tracker, new Random(seeds.nextLong()),
          options.failoverTimeout(), started);
      FaultInjector injector = new FaultInjector(cluster, tracker, new FailoverProbe(cluster, clients, submitter),
          amKiller, options, started);
      List<FaultInjector.Result> results = injectAll(plan, cluster, injector, steadyStart, targets);

      sleepUntil(steadyStart + options.duration().toNanos());
      submitting.set(false);
      join(stream);
      out.println("[" + elapsed() + "] submissions stopped; waiting up to " + Durations.format(options.drain())
          + " for " + tracker.running().size() + " running application(s)");
      cluster.heal(Cluster.MEMBER_START);
      drain(tracker);
      watchers.pollNodeManagers();
      // After the last NodeManager poll: an application that ended in between is judged with its
      // end, not as unfinished with its AM container's clean-up kill counted as a loss.
      Set<String> unknown = settle(cluster, clients, tracker);

      List<Violation> violations = new ArrayList<>(checker.violations(tracker::finishedAt));
      InvariantChecker.Kept kept = checker.kept(ServiceAttempts.read(cluster, clients, tracker, notes),
          tracker::finishedAt);
      violations.addAll(kept.violations());
      violations.addAll(unfinished(tracker, unknown));
      violations.addAll(conflicts(cluster));
      JournalAudit.Outcome audit = audit(cluster);
      violations.addAll(audit.violations());
      out.println("[" + elapsed() + "] stopping the cluster");
      int planned = plan.faults().size();
      return new ChaosReport(options.describe(), cluster.workDir, java.util.Optional.empty(), planned, results,
          tracker.accepted().size(), (int) tracker.accepted().stream().filter(AppTracker.App::succeeded).count(),
          (int) tracker.all().stream().filter(a -> !a.accepted()).count(), tracker.refusals(),
          checker.containersSeen(), checker.overCommitSamples(), watchers.failedPolls(), violations, kept,
          audit, audit.fencingGaps(injector.downings()), List.copyOf(notes), elapsedMs());
    }
  }

  /** Faults one at a time: each not before its planned time, nor before the last one is over and settled. */
  private List<FaultInjector.Result> injectAll(FaultPlan plan, Cluster cluster, FaultInjector injector,
      long steadyStart, Random random) {
    List<FaultInjector.Result> results = new ArrayList<>();
    long lastDone = steadyStart;
    int n = plan.faults().size();
    for (int i = 0; i < n; i++) {
      FaultPlan.Planned f = plan.faults().get(i);
      long at = Math.max(steadyStart + f.notBefore().toNanos(), lastDone + SETTLE.toNanos());
      if (faults instanceof FaultPlan.Ratio && at - steadyStart >= options.duration().toNanos()) {
        notes.add((n - i) + " planned fault(s) not injected: the duration ended first");
        break;
      }
      sleepUntil(at);
      cluster.heal(Cluster.MEMBER_START);
      List<Member> serving = cluster.serving();
      if (serving.isEmpty()) {
        notes.add("fault " + (i + 1) + " not injected: no member was serving");
        lastDone = System.nanoTime();
        continue;
      }
      Member target = serving.get(random.nextInt(serving.size()));
      out.printf("[%s] fault %d/%d: %s %s%n", elapsed(), i + 1, n, f.kind().label(), switch (f.kind().target) {
        case JOURNAL -> "(PostgreSQL)";
        case APPLICATION -> "(a long-running application's AM)";
        default -> target.name();
      });
      FaultInjector.Result r = injector.inject(i + 1, f.kind(), target);
      out.printf("[%s]   %s; %s%n", elapsed(), measured(r), r.note());
      results.add(r);
      lastDone = System.nanoTime();
    }
    return results;
  }

  private static String measured(FaultInjector.Result r) {
    String failover = r.failoverMs() == FaultInjector.NOT_MEASURED ? ""
        : "failover " + (r.timedOut() ? "not complete after " + Durations.format(r.timeoutMs()) : Durations.format(r.failoverMs()));
    String again = r.serveAgainMs() == FaultInjector.NOT_MEASURED ? ""
        : "serving again " + (r.serveAgainMs() < 0 ? "not within " + Durations.format(r.timeoutMs())
            : Durations.format(r.serveAgainMs()) + " after the heal");
    return failover.isEmpty() ? again : again.isEmpty() ? failover : failover + ", " + again;
  }

  /**
   * Members in network namespaces when the faults ask for network faults and this host can make
   * them; otherwise those faults are skipped, each with the reason, printed and in the summary.
   */
  private Optional<MemberNetwork> network() {
    FaultPlan.Spec spec = options.faults();
    Optional<String> unsupported = Optional.empty();
    Optional<String> setupFailure = Optional.empty();
    Map<FaultKind, String> unavailable = Map.of();
    Optional<MemberNetwork> network = Optional.empty();
    if (!SkippedFaults.networkKinds(spec).isEmpty()) {
      unsupported = MemberNetwork.unsupported();
      if (unsupported.isEmpty()) {
        List<String> stale = MemberNetwork.removeStale();
        if (!stale.isEmpty()) out.println("removed what an ended run left behind: " + String.join(", ", stale));
        try {
          network = Optional.of(MemberNetwork.create(options.members()));
          unavailable = network.get().unavailable();
        } catch (NetworkException e) {
          setupFailure = Optional.of(e.getMessage());
        }
      }
    }
    Map<FaultKind, String> skipped = new EnumMap<>(FaultKind.class);
    skipped.putAll(SkippedFaults.decide(spec, options.members(), unsupported, setupFailure, unavailable));
    skipped.putAll(SkippedFaults.withoutServices(spec, options.keepContainersShare(),
        Files.isReadable(Path.of("/proc/self/environ"))));
    for (String note : SkippedFaults.describe(spec, skipped)) {
      notes.add(note);
      out.println("note: " + note);
    }
    faults = spec.without(skipped.keySet());
    if (network.isPresent() && SkippedFaults.networkKinds(faults).isEmpty()) {
      network.get().close();
      return Optional.empty();
    }
    return network;
  }

  /** Entities whose write the journal refused with a duplicate key, from every member's log. */
  private List<Violation> conflicts(Cluster cluster) {
    List<Violation> found = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (Member m : cluster.members) {
      try {
        for (ConflictScanner.Conflict c : ConflictScanner.scan(m.name(), m.log)) {
          found.add(new Violation(Violation.Kind.CONFLICT_STOP, now, c.persistenceId() + " on " + c.member()
              + ": the journal refused sequence number " + c.sequenceNr() + " as a duplicate key (logged at "
              + c.loggedAt() + ")"));
        }
      } catch (IOException e) {
        notes.add("could not read " + m.log + " for sequence-number conflicts: " + e.getMessage());
      }
    }
    return found;
  }

  /** The journal checked for writes from fenced members, on the database the members used. */
  private JournalAudit.Outcome audit(Cluster cluster) {
    var db = cluster.database();
    try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
      return JournalAudit.check(c);
    } catch (SQLException e) {
      return JournalAudit.Outcome.notChecked("could not query the journal: " + e.getMessage());
    }
  }

  private void drain(AppTracker tracker) {
    long deadline = System.nanoTime() + options.drain().toNanos();
    while (!tracker.running().isEmpty() && System.nanoTime() < deadline) {
      if (!Sleep.millis(1000)) return;
    }
  }

  /**
   * Asks every serving member directly about each accepted application not known to have ended
   * (the list poll may have missed the last change); returns those no member knows.
   */
  private Set<String> settle(Cluster cluster, ClusterClients clients, AppTracker tracker) {
    Set<String> unknown = new HashSet<>();
    for (String id : tracker.running()) {
      boolean found = false;
      for (Member m : cluster.serving()) {
        try {
          tracker.seen(clients.rm(m, SETTLE_TIMEOUT).application(id));
          found = true;
          break;
        } catch (CallException e) {
          // ask the next member
        }
      }
      if (!found) unknown.add(id);
    }
    return unknown;
  }

  private List<Violation> unfinished(AppTracker tracker, Set<String> unknown) {
    long now = System.currentTimeMillis();
    List<Violation> out = new ArrayList<>();
    for (AppTracker.App a : tracker.accepted()) {
      if (a.succeeded()) continue;
      String why = a.isFinal() ? "ended " + a.state() + " with final status " + a.finalStatus()
          + (a.diagnostics().isBlank() ? "" : ": " + a.diagnostics().strip())
          : unknown.contains(a.id()) ? "was accepted and no serving member knows it any more"
          : "still " + a.state() + " after the drain of " + Durations.format(options.drain());
      out.add(new Violation(Violation.Kind.UNFINISHED_APP, now, a.id() + " " + why));
    }
    return out;
  }

  private void progress(Cluster cluster, AppTracker tracker, InvariantChecker checker) {
    List<AppTracker.App> accepted = tracker.accepted();
    out.printf(Locale.ROOT, "[%s] members serving %d/%d; apps accepted %d, ended %d; containers seen %d;"
            + " violations so far %d%n", elapsed(), cluster.serving().size(), cluster.members.size(), accepted.size(),
        accepted.stream().filter(AppTracker.App::isFinal).count(), checker.containersSeen(),
        checker.violations(tracker::finishedAt).size());
  }

  private Path workDir() throws IOException {
    if (options.workDir().isEmpty()) return Files.createTempDirectory("bobbin-chaos-").toAbsolutePath();
    Path dir = options.workDir().get().toAbsolutePath();
    if (Files.isDirectory(dir)) {
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) throw new ChaosUsageException("--work-dir " + dir + " is not empty");
      }
    }
    return Files.createDirectories(dir);
  }

  /** Absolute entries (the AMs run elsewhere), and the launcher must be among them. */
  private String classpath() throws StartupException {
    String raw = options.classpath().orElse(System.getProperty("java.class.path", ""));
    List<String> entries = Arrays.stream(raw.split(File.pathSeparator)).filter(e -> !e.isBlank())
        .map(e -> Path.of(e).toAbsolutePath().normalize().toString()).toList();
    if (entries.stream().noneMatch(ChaosRun::holdsLauncher)) {
      throw new StartupException("the classpath for the RM and NM processes has no " + LAUNCHER_MAIN
          + " (give --classpath, or run bin/bobbin chaos): " + raw);
    }
    return entries.stream().collect(Collectors.joining(File.pathSeparator));
  }

  private static boolean holdsLauncher(String entry) {
    Path p = Path.of(entry);
    if (Files.isDirectory(p)) return Files.isRegularFile(p.resolve(LAUNCHER_MAIN));
    if (!entry.endsWith(".jar") || !Files.isRegularFile(p)) return false;
    try (JarFile jar = new JarFile(p.toFile())) {
      return jar.getEntry(LAUNCHER_MAIN) != null;
    } catch (IOException e) {
      return false;
    }
  }

  private void join(Thread t) {
    try {
      t.join(SUBMITTER_STOP.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (t.isAlive()) notes.add("the submitter did not stop within " + Durations.format(SUBMITTER_STOP));
  }

  private static void sleepUntil(long nanos) {
    while (System.nanoTime() < nanos) {
      if (!Sleep.millis(Math.min(500, (nanos - System.nanoTime()) / 1_000_000 + 1))) return;
    }
  }

  private long elapsedMs() {
    return (System.nanoTime() - started) / 1_000_000;
  }

  private String elapsed() {
    return String.format(Locale.ROOT, "%6s", Durations.format(elapsedMs()));
  }
}
