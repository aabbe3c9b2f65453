package dev.bobbin.core.app;

import dev.bobbin.protocol.ExitStatus;
import java.util.List;

/**
 * Which failed attempts use up the application's attempts, as YARN's {@code RMAppImpl} counts them:
 * not those the cluster ended (preemption, an aborted AM container on a lost node or across an RM
 * failover, failed disks, the RM's kill), and, with a validity interval, only those that ended
 * within it before now: the window slides, and older failures stop counting.
 */
public final class AttemptFailures {
  private AttemptFailures() {}

  /** The failed attempts that count at {@code now}. */
  public static int counted(List<Attempt> attempts, long validityInterval, long now) {
    int n = 0;
    for (Attempt a : attempts) if (counts(a, validityInterval, now)) n++;
    return n;
  }

  static boolean counts(Attempt a, long validityInterval, long now) {
    if (a.state() != AttemptState.FAILED || !ExitStatus.countsAgainstAttempts(a.exitStatus())) return false;
    return validityInterval <= 0 || a.finishTime() >= now - validityInterval;
  }

  /** Why an AM container's end is not held against the application; null when it is. */
  static String notCountedBecause(int exitStatus) {
    return switch (exitStatus) {
      case ExitStatus.PREEMPTED -> "its AM container was preempted (PREEMPTED)";
      case ExitStatus.ABORTED ->
          "the cluster aborted its AM container (ABORTED: its node was lost or decommissioned, or the "
              + "ResourceManager failed over)";
      case ExitStatus.DISKS_FAILED -> "the disks of its AM container's node failed (DISKS_FAILED)";
      case ExitStatus.KILLED_BY_RESOURCEMANAGER ->
          "the ResourceManager killed its AM container (KILLED_BY_RESOURCEMANAGER)";
      default -> null;
    };
  }
}
