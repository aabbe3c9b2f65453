package dev.bobbin.chaos;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Injects one fault into one member, measures the failover while the member is being brought
 * back, and returns once it serves again (or its recovery gave up, bounded in time).
 *
 * <p>Recovery: a killed member is restarted on its ports {@code --restart-delay} after the kill;
 * a terminated one likewise, once it has exited. A paused member gets SIGCONT as soon as a
 * survivor's log shows the split-brain resolver downing it (Pekko logs "SBR took decision ...
 * and is downing [address]" at WARN), at the latest after {@code --pause-hold}; a downed member
 * then shuts itself down, and is restarted. One that was not downed is left running if it serves.
 */
final class FaultInjector {
  /** What one fault did. {@code failoverMs} is -1 when recovery took longer than {@code timeoutMs}. */
  record Result(int number, FaultKind kind, String member, long atMs, long failoverMs, long timeoutMs, String note) {
    boolean timedOut() {
      return failoverMs < 0;
    }
  }

  private static final Duration TERM_EXIT_WAIT = Duration.ofSeconds(30);
  private static final Duration RESUMED_EXIT_WAIT = Duration.ofSeconds(60);
  private static final Duration RESUMED_SERVE_WAIT = Duration.ofSeconds(30);

  private final Cluster cluster;
  private final AppTracker tracker;
  private final FailoverProbe probe;
  private final ChaosOptions options;
  private final long runStartNanos;

  FaultInjector(Cluster cluster, AppTracker tracker, FailoverProbe probe, ChaosOptions options, long runStartNanos) {
    this.cluster = cluster;
    this.tracker = tracker;
    this.probe = probe;
    this.options = options;
    this.runStartNanos = runStartNanos;
  }

  Result inject(int number, FaultKind kind, Member target) {
    List<String> running = tracker.running();
    Process p = target.process();
    long t0 = System.nanoTime();
    long atMs = (t0 - runStartNanos) / 1_000_000;
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
        default -> {
          if (!Children.signal(p, "STOP")) {
            target.state(Member.State.UP);
            return new Result(number, kind, target.name(), atMs, 0, 0, "SIGSTOP could not be sent; skipped");
          }
          recovery = recoverer.submit(() -> afterPause(target, p, t0));
        }
      }
      long failover = probe.await(running, t0, options.failoverTimeout());
      return new Result(number, kind, target.name(), atMs, failover, options.failoverTimeout().toMillis(),
          awaitRecovery(recovery));
    } finally {
      recoverer.shutdownNow();
    }
  }

  private String awaitRecovery(Future<String> recovery) {
    Duration limit = options.restartDelay().plus(options.pauseHold()).plus(RESUMED_EXIT_WAIT)
        .plus(TERM_EXIT_WAIT).plus(Cluster.MEMBER_START);
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
    long downedMs = awaitDowning(m, t0);
    Children.signal(p, "CONT");
    long resumed = System.nanoTime();
    if (downedMs < 0) {
      String note = "not downed by a survivor within " + Durations.format(options.pauseHold()) + ", resumed";
      if (cluster.awaitUp(m, RESUMED_SERVE_WAIT)) return note + " and serving again";
      Children.stop(p, Duration.ofSeconds(5));
      return note + " but not serving; " + restart(m);
    }
    boolean exited = p.waitFor(RESUMED_EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    String note = "downed " + Durations.format(downedMs) + " after SIGSTOP; "
        + (exited ? "stopped itself " + since(resumed) + " after SIGCONT"
            : "still running " + Durations.format(RESUMED_EXIT_WAIT) + " after SIGCONT, killed");
    if (!exited) Children.stop(p, Duration.ZERO);
    return note + "; " + restart(m);
  }

  private String restart(Member m) {
    long t = System.nanoTime();
    return cluster.restart(m, Cluster.MEMBER_START) ? "restarted, serving " + since(t) + " later"
        : "restarted but not serving within " + Durations.format(Cluster.MEMBER_START) + " ("
            + Cluster.exitNote(m.process()) + ")";
  }

  /** Milliseconds after {@code t0} when a survivor logged downing {@code m}, or -1 after {@code --pause-hold}. */
  private long awaitDowning(Member m, long t0) {
    Map<Member, Long> offsets = new LinkedHashMap<>();
    cluster.members.stream().filter(o -> o != m).forEach(o -> offsets.put(o, Logs.size(o.log)));
    long deadline = t0 + options.pauseHold().toNanos();
    while (System.nanoTime() < deadline) {
      for (Map.Entry<Member, Long> e : offsets.entrySet()) {
        String text = Logs.from(e.getKey().log, e.getValue());
        int complete = text.lastIndexOf('\n') + 1;
        if (text.substring(0, complete).lines().anyMatch(line -> downs(line, m.clusterAddress()))) {
          return (System.nanoTime() - t0) / 1_000_000;
        }
        e.setValue(e.getValue() + text.substring(0, complete).getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
      }
      if (!Sleep.millis(500)) break;
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

  private static void sleepUntil(long nanos) throws InterruptedException {
    long left = nanos - System.nanoTime();
    if (left > 0) TimeUnit.NANOSECONDS.sleep(left);
  }
}
