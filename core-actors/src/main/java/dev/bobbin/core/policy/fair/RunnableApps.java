package dev.bobbin.core.policy.fair;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which applications count as runnable under the queues' maxRunningApps. Hadoop's
 * MaxRunningAppsEnforcer admits applications in submission order while every queue from the leaf up
 * to the root is below its limit; from a snapshot the same rule reads: walk the applications by
 * submission time and admit each one whose queues all still have room. Only runnable applications
 * make a queue active, get a share of it, and are offered containers.
 *
 * <p>Not mirrored: Hadoop's per-user limits, and its keeping an application runnable after a limit
 * is lowered under it.
 */
final class RunnableApps {
  private RunnableApps() {}

  /** An application as far as admission cares: its leaf's full path and its submission time. */
  record Submission(String appId, String queuePath, long submitTime) {}

  private static final Comparator<Submission> SUBMISSION_ORDER =
      Comparator.comparingLong(Submission::submitTime).thenComparing(Submission::appId);

  /** The ids of the runnable applications; applications not in a leaf of the tree are never runnable. */
  static Set<String> select(QueueIndex index, List<Submission> apps) {
    Map<String, Integer> running = new HashMap<>();
    Set<String> out = new HashSet<>();
    apps.stream().sorted(SUBMISSION_ORDER).forEach(app -> {
      if (!index.isLeaf(app.queuePath())) return;
      List<QueueSpec> chain = index.chain(app.queuePath());
      boolean room = chain.stream().allMatch(q -> running.getOrDefault(q.path(), 0) < q.maxRunningApps());
      if (!room) return;
      chain.forEach(q -> running.merge(q.path(), 1, Integer::sum));
      out.add(app.appId());
    });
    return out;
  }
}
