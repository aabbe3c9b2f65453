package dev.bobbin.chaos;

import dev.bobbin.protocol.client.CallException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntPredicate;

/**
 * Measures a failover. It is over at the first moment when every application that was running
 * at the fault has answered {@code GET /ws/v1/cluster/apps/{id}} with 200 on a serving member
 * since the fault, and a fresh submission has been accepted (an application in the stream).
 * Only members the harness counts as serving are asked: not the faulted one until it is
 * restarted and answering again.
 */
final class FailoverProbe {
  private static final Duration REQUEST = Duration.ofSeconds(2);
  private static final long ROUND_MS = 200;

  private final Cluster cluster;
  private final ClusterClients clients;
  private final Submitter submitter;

  FailoverProbe(Cluster cluster, ClusterClients clients, Submitter submitter) {
    this.cluster = cluster;
    this.clients = clients;
    this.submitter = submitter;
  }

  /**
   * Milliseconds from {@code faultNanos} to recovery, or -1 if it did not recover within {@code timeout}.
   * Each application, and the submission, is polled on its own: asked one after the other, a few
   * requests hanging for their full timeout added seconds to the measure that the cluster did not
   * take.
   */
  long await(List<String> runningAtFault, long faultNanos, Duration timeout) {
    long deadline = faultNanos + timeout.toNanos();
    ExecutorService pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "chaos-failover-probe");
      t.setDaemon(true);
      return t;
    });
    try {
      List<CompletableFuture<Long>> firstSuccess = new ArrayList<>();
      for (String id : new LinkedHashSet<>(runningAtFault)) {
        firstSuccess.add(CompletableFuture.supplyAsync(() -> until(deadline, turn -> answers(id, turn)), pool));
      }
      firstSuccess.add(CompletableFuture.supplyAsync(() -> until(deadline, turn -> submitter.submitOnce()), pool));
      long last = faultNanos;
      for (CompletableFuture<Long> f : firstSuccess) {
        long at = f.join();
        if (at < 0) return -1;
        last = Math.max(last, at);
      }
      return (last - faultNanos) / 1_000_000;
    } finally {
      pool.shutdownNow();
    }
  }

  /** When {@code check} first held, polled every {@link #ROUND_MS} while a member serves; -1 if not by the deadline. */
  private long until(long deadline, IntPredicate check) {
    for (int turn = 0; System.nanoTime() < deadline; turn++) {
      if (!cluster.serving().isEmpty() && check.test(turn)) return System.nanoTime();
      if (!Sleep.millis(ROUND_MS)) break;
    }
    return -1;
  }

  private boolean answers(String appId, int turn) {
    List<Member> serving = cluster.serving();
    for (int i = 0; i < serving.size(); i++) {
      Member m = serving.get((turn + i) % serving.size());
      try {
        clients.rm(m, REQUEST).application(appId);
        return true;
      } catch (CallException e) {
        // try the next member
      }
    }
    return false;
  }
}
