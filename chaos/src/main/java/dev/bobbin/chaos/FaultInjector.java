package dev.bobbin.chaos;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Injects one fault into one member (or the journal), measures the failover while the member is
 * being brought back, and returns once it serves again (or its recovery gave up, bounded in time).
 *
 * <p>Recovery: a killed member is restarted on its ports {@code --restart-delay} after the kill;
 * a terminated one likewise, once it has exited. A paused member gets SIGCONT as soon as a
 * survivor's log shows the split-brain resolver downing it (Pekko logs "SBR took decision ...
 * and is downing [address]" at WARN), at the latest after {@code --pause-hold}; a downed member
 * then shuts itself down, and is restarted. One that was not downed is left running if it serves.
 * An isolated or partitioned member is healed likewise once downed; a lossy or slow link, and a
 * journal outage, last {@code --fault-hold}. After a heal, the time until the cluster serves again
 * is measured too.
 */
final class FaultInjector {
  /** Failover time of a fault that has none of its own (a journal outage: every member stays up). */
  static final long NOT_MEASURED = Long.MIN_VALUE;

  /**
   * What one fault did. {@code failoverMs} is -1 when recovery took longer than {@code timeoutMs};
   * {@code serveAgainMs}, for faults that heal, runs from the heal, -1 likewise, {@link #NOT_MEASURED} otherwise.
   * For an AM kill, {@code failoverMs} is the time until the application's next attempt registered,
   * and {@code member} the NodeManager that ran the AM.
   */
  record Result(int number, FaultKind kind, String member, long atMs, long failoverMs, long timeoutMs,
      long serveAgainMs, String note) {
    boolean timedOut() {
      return failoverMs == -1;
    }
  }

  /** A survivor's log showed {@code address} downed; {@code atMs} is when the harness saw it (epoch ms). */
  record Downing(Member member, long atMs) {}

  private static final Duration TERM_EXIT_WAIT = Duration.ofSeconds(30);
  private static final Duration RESUMED_EXIT_WAIT = Duration.ofSeconds(60);
  private static final Duration RESUMED_SERVE_WAIT = Duration.ofSeconds(30);
  private static final long DOWNING_POLL_MS = 500;

  private final Cluster cluster;
  private final AppTracker tracker;
  private final FailoverProbe probe;
  private final AmKiller amKiller;
  private final ChaosOptions options;
  private final long runStartNanos;
  private final List<Downing> downings = new CopyOnWriteArrayList<>();

  FaultInjector(Cluster cluster, AppTracker tracker, FailoverProbe probe, AmKiller amKiller, ChaosOptions options,
      long runStartNanos) {
    this.cluster = cluster;
    this.tracker = tracker;
    this.probe = probe;
    this.amKiller = amKiller;
    this.options = options;
    this.runStartNanos = runStartNanos;
  }

  /** Every downing of a faulted member the harness saw in a survivor's log. */
  List<Downing> downings() {
    return List.copyOf(downings);
  }

  /** {@code target} is ignored for journal outages and AM kills. */
  Result inject(int number, FaultKind kind, Member target) {
    return switch (kind.target) {
      case JOURNAL -> journalOutage(number, kind);
      case APPLICATION -> amKiller.kill(number);
      default -> memberFault(number, kind, target);
    };
  }

  private Result memberFault(int number, FaultKind kind, Member target) {
    List<String> running = tracker.running();
    Process p = target.process();
    long t0 = System.nanoTime();
    long atMs = (t0 - runStartNanos) / 1_000_000;
    AtomicLong serveAgain = new AtomicLong(NOT_MEASURED);
    target.state(Member.State.FAULTED);
    ExecutorService recoverer = Executors.newSingleThreadExecutor(r -> new Thread(r, "chaos-recover-" + target.name()));
    try {
      Future<String> recovery;
      switch (kind) {
        case KILL -> {
          p.destroyForcibly();
          recovery = recoverer.submit(() -> afterKill(target, p, t0));
        }
        case TERM -> {
          p.destroy();
          recovery = recoverer.submit(() -> afterTerm(target, p, t0));
        }
        case PAUSE -> {
          if (!Children.signal(p, "STOP")) return skipped(number, kind, target, atMs, "SIGSTOP could not be sent");
          recovery = recoverer.submit(() -> afterPause(target, p, t0));
        }
        default -> {
          MemberNetwork.Heal heal;
          try {
            heal = cluster.network().orElseThrow(() -> new NetworkException("members are not in namespaces"))
                .inject(kind, target.index);
          } catch (NetworkException e) {
            return skipped(number, kind, target, atMs, e.getMessage());
          }
          recovery = recoverer.submit(() -> afterNetworkFault(kind, target, p, t0, heal, serveAgain));
        }
      }
      long failover = probe.await(running, t0, options.failoverTimeout());
      String note = awaitRecovery(recovery);
      return new Result(number, kind, target.name(), atMs, failover, options.failoverTimeout().toMillis(),
          serveAgain.get(), note);
    } finally {
      recoverer.shutdownNow();
    }
  }

  private Result skipped(int number, FaultKind kind, Member target, long atMs, String why) {
    target.state(Member.State.UP);
    return new Result(number, kind, target.name(), atMs, 0, 0, NOT_MEASURED, "not injected (" + why + "); skipped");
  }

  /** Stopped or frozen for {@code --fault-hold}; every member stays up meanwhile. */
  private Result journalOutage(int number, FaultKind kind) {
    long t0 = System.nanoTime();
    long atMs = (t0 - runStartNanos) / 1_000_000;
    JournalControl journal = cluster.journal();
    String note;
    if (kind == FaultKind.JOURNAL_STOP) {
      journal.stop();
      note = "PostgreSQL stopped";
    } else {
      if (!journal.freeze()) {
        return new Result(number, kind, "journal", atMs, NOT_MEASURED, 0, NOT_MEASURED,
            "not injected (SIGSTOP could not be sent); skipped");
      }
      note = "PostgreSQL frozen (SIGSTOP)";
    }
    sleepUntil(t0 + options.faultHold().toNanos());
    try {
      if (kind == FaultKind.JOURNAL_STOP) {
        journal.start();
      } else {
        journal.thaw();
      }
    } catch (RuntimeException e) {
      return new Result(number, kind, "journal", atMs, NOT_MEASURED, 0, -1, note + "; did not come back: " + e.getMessage());
    }
    long back = System.nanoTime();
    note += " for " + since(t0) + ", back";
    long serveAgain = probe.await(tracker.running(), back, options.failoverTimeout());
    return new Result(number, kind, "journal", atMs, NOT_MEASURED, options.failoverTimeout().toMillis(), serveAgain, note);
  }

  private String awaitRecovery(Future<String> recovery) {
    Duration limit = options.restartDelay().plus(options.pauseHold()).plus(options.faultHold())
        .plus(options.failoverTimeout()).plus(RESUMED_EXIT_WAIT).plus(TERM_EXIT_WAIT).plus(Cluster.MEMBER_START);
    try {
      return recovery.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return "recovery still not done after " + Durations.format(limit);
    } catch (ExecutionException e) {
      return "recovery failed: " + e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private String afterKill(Member m, Process p, long t0) throws InterruptedException {
    p.waitFor(10, TimeUnit.SECONDS);
    sleepUntil(t0 + options.restartDelay().toNanos());
    return restart(m);
  }

  private String afterTerm(Member m, Process p, long t0) throws InterruptedException {
    boolean left = p.waitFor(TERM_EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    String note = left ? "exited " + since(t0) + " after SIGTERM"
        : "still running " + Durations.format(TERM_EXIT_WAIT) + " after SIGTERM, killed";
    if (!left) Children.stop(p, Duration.ZERO);
    sleepUntil(t0 + options.restartDelay().toNanos());
    return note + "; " + restart(m);
  }

  private String afterPause(Member m, Process p, long t0) throws InterruptedException {
    long downedMs = awaitDowning(m, t0, t0 + options.pauseHold().toNanos());
    Children.signal(p, "CONT");
    String note = downedMs < 0 ? "not downed by a survivor within " + Durations.format(options.pauseHold()) + ", resumed"
        : "downed " + Durations.format(downedMs) + " after SIGSTOP; resumed";
    return note + "; " + settle(m, p, downedMs >= 0, System.nanoTime());
  }

  /**
   * Isolation and partitions hold until a survivor downs the member (at most {@code --pause-hold});
   * partition-pause adds SIGSTOP from the start until then, and SIGCONT while still cut off, healed
   * once the member stopped itself (at most {@code --fault-hold}); loss and a slow link hold for
   * {@code --fault-hold}. Then the heal, the time until the cluster serves again, and the member back.
   */
  private String afterNetworkFault(FaultKind kind, Member m, Process p, long t0, MemberNetwork.Heal heal,
      AtomicLong serveAgain) throws InterruptedException {
    StringBuilder note = new StringBuilder();
    long downedMs;
    boolean paused = kind == FaultKind.PARTITION_PAUSE && Children.signal(p, "STOP");
    if (kind == FaultKind.PARTITION_PAUSE && !paused) note.append("SIGSTOP could not be sent; ");
    if (kind == FaultKind.LOSS || kind == FaultKind.SLOW) {
      downedMs = awaitDowning(m, t0, t0 + options.faultHold().toNanos());
      sleepUntil(t0 + options.faultHold().toNanos());
      note.append(downedMs < 0 ? "not downed" : "downed " + Durations.format(downedMs) + " after the fault")
          .append("; healed after ").append(Durations.format(options.faultHold()));
    } else {
      downedMs = awaitDowning(m, t0, t0 + options.pauseHold().toNanos());
      note.append(downedMs < 0 ? "not downed within " + Durations.format(options.pauseHold())
          : "downed " + Durations.format(downedMs) + " after the fault");
      if (paused) {
        Children.signal(p, "CONT");
        long resumed = System.nanoTime();
        boolean exited = p.waitFor(options.faultHold().toMillis(), TimeUnit.MILLISECONDS);
        note.append("; SIGCONT still cut off, ").append(exited ? "stopped itself " + since(resumed) + " later"
            : "still running " + Durations.format(options.faultHold()) + " later");
      }
    }
    try {
      heal.heal();
    } catch (NetworkException e) {
      note.append("; HEAL FAILED: ").append(e.getMessage());
    }
    long healed = System.nanoTime();
    serveAgain.set(probe.await(tracker.running(), healed, options.failoverTimeout()));
    return note + "; " + settle(m, p, downedMs >= 0, healed);
  }

  /** After the fault: a downed member stops itself and is restarted; one that was not downed is left running if it serves. */
  private String settle(Member m, Process p, boolean downed, long since) throws InterruptedException {
    if (!downed) {
      if (!p.isAlive()) return "it had exited (" + Cluster.exitNote(p) + "); " + restart(m);
      if (cluster.awaitUp(m, RESUMED_SERVE_WAIT)) return "serving again";
      Children.stop(p, Duration.ofSeconds(5));
      return "not serving; " + restart(m);
    }
    if (!p.isAlive()) return restart(m);
    boolean exited = p.waitFor(RESUMED_EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    String note = exited ? "stopped itself " + since(since) + " later"
        : "still running " + Durations.format(RESUMED_EXIT_WAIT) + " later, killed";
    if (!exited) Children.stop(p, Duration.ZERO);
    return note + "; " + restart(m);
  }

  private String restart(Member m) {
    long t = System.nanoTime();
    return cluster.restart(m, Cluster.MEMBER_START) ? "restarted, serving " + since(t) + " later"
        : "restarted but not serving within " + Durations.format(Cluster.MEMBER_START) + " ("
            + Cluster.exitNote(m.process()) + ")";
  }

  /** Milliseconds after {@code t0} when a survivor logged downing {@code m}, or -1 if none did by {@code deadline}. */
  private long awaitDowning(Member m, long t0, long deadline) {
    Map<Member, Long> offsets = new LinkedHashMap<>();
    cluster.members.stream().filter(o -> o != m).forEach(o -> offsets.put(o, Logs.size(o.log)));
    while (System.nanoTime() < deadline) {
      for (Map.Entry<Member, Long> e : offsets.entrySet()) {
        String text = Logs.from(e.getKey().log, e.getValue());
        int complete = text.lastIndexOf('\n') + 1;
        if (text.substring(0, complete).lines().anyMatch(line -> downs(line, m.clusterAddress()))) {
          downings.add(new Downing(m, System.currentTimeMillis()));
          return (System.nanoTime() - t0) / 1_000_000;
        }
        e.setValue(e.getValue() + text.substring(0, complete).getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
      }
      if (!Sleep.millis(DOWNING_POLL_MS)) break;
    }
    return -1;
  }

  /** Pekko's split-brain resolver: "SBR took decision X and is downing [addr, addr], ...". */
  static boolean downs(String line, String address) {
    int start = line.indexOf("is downing [");
    if (start < 0) return false;
    int end = line.indexOf(']', start);
    String downed = line.substring(start, end < 0 ? line.length() : end);
    for (int i = downed.indexOf(address); i >= 0; i = downed.indexOf(address, i + 1)) {
      int after = i + address.length();
      // 127.0.0.1:2551 must not match 127.0.0.1:25510
      if (after >= downed.length() || !Character.isDigit(downed.charAt(after))) return true;
    }
    return false;
  }

  private String since(long nanos) {
    return Durations.format((System.nanoTime() - nanos) / 1_000_000);
  }

  private static void sleepUntil(long nanos) {
    while (System.nanoTime() < nanos) {
      if (!Sleep.millis(Math.min(500, (nanos - System.nanoTime()) / 1_000_000 + 1))) return;
    }
  }
}
