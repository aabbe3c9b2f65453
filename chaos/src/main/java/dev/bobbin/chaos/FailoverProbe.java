package dev.bobbin.chaos;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
  private final Http http;
  private final Submitter submitter;

  FailoverProbe(Cluster cluster, Http http, Submitter submitter) {
    this.cluster = cluster;
    this.http = http;
    this.submitter = submitter;
  }

  /** Milliseconds from {@code faultNanos} to recovery, or -1 if it did not recover within {@code timeout}. */
  long await(List<String> runningAtFault, long faultNanos, Duration timeout) {
    Set<String> pending = new LinkedHashSet<>(runningAtFault);
    boolean submitted = false;
    long deadline = faultNanos + timeout.toNanos();
    int turn = 0;
    while (System.nanoTime() < deadline) {
      List<Member> serving = cluster.serving();
      if (!serving.isEmpty()) {
        for (String id : new ArrayList<>(pending)) {
          if (System.nanoTime() >= deadline) break;
          if (answers(id, serving, turn++)) pending.remove(id);
        }
        if (!submitted && System.nanoTime() < deadline) submitted = submitter.submitOnce();
        if (pending.isEmpty() && submitted) return (System.nanoTime() - faultNanos) / 1_000_000;
      }
      if (!Sleep.millis(ROUND_MS)) break;
    }
    return -1;
  }

  private boolean answers(String appId, List<Member> serving, int turn) {
    for (int i = 0; i < serving.size(); i++) {
      Member m = serving.get((turn + i) % serving.size());
      try {
        if (http.get(m.url() + "/ws/v1/cluster/apps/" + appId, REQUEST).status() == 200) return true;
      } catch (IOException e) {
        // try the next member
      }
    }
    return false;
  }
}
