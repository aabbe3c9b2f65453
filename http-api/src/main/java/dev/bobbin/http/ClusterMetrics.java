package dev.bobbin.http;

import dev.bobbin.core.RmCore;
import dev.bobbin.core.directory.AppCounts;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.rest.ClusterMetricsInfo;
import java.util.concurrent.CompletionStage;

/**
 * YARN's {@code ClusterMetricsInfo}, measured from the application counts and the scheduler's usage
 * report; also the source of {@code /metrics}. The counts of submitted, completed, failed and killed
 * applications include those that ended long enough ago to have left the application list. What
 * Bobbin does not track (reservations, pending containers, rebooted nodes) is 0 here, for YARN's clients, and left out of {@code /metrics}.
 */
final class ClusterMetrics {
  private ClusterMetrics() {}

  /** The one place the figures are read from the RM. */
  static CompletionStage<ClusterMetricsInfo> measure(RmCore core) {
    return core.applicationCounts().thenCombine(core.usage(), ClusterMetrics::of);
  }

  static ClusterMetricsInfo of(AppCounts apps, SchedulerProtocol.UsageReport u) {
    int failed = count(apps, YarnApplicationState.FAILED);
    int killed = count(apps, YarnApplicationState.KILLED);
    int pending = count(apps, YarnApplicationState.ACCEPTED) + count(apps, YarnApplicationState.SUBMITTED);
    int running = u.apps().values().stream().mapToInt(SchedulerProtocol.AppUsage::runningContainers).sum();
    var capacity = u.clusterCapacity();
    var used = u.clusterUsed();
    return new ClusterMetricsInfo(
        (int) apps.submitted(),
        // YARN's appsCompleted counts the applications that finished, not those that failed or were killed.
        count(apps, YarnApplicationState.FINISHED),
        pending,
        count(apps, YarnApplicationState.RUNNING),
        failed,
        killed,
        running,
        0, // containersReserved
        0, // containersPending
        0, // reservedMB
        capacity.memory() - used.memory(),
        used.memory(),
        capacity.memory(),
        0, // reservedVirtualCores
        capacity.vCores() - used.vCores(),
        used.vCores(),
        capacity.vCores(),
        u.activeNodes() + u.lostNodes() + u.unhealthyNodes() + u.decommissioningNodes() + u.decommissionedNodes()
            + u.shutdownNodes(),
        u.activeNodes(),
        u.lostNodes(),
        u.unhealthyNodes(),
        u.decommissioningNodes(),
        u.decommissionedNodes(),
        0, // rebootedNodes
        u.shutdownNodes(),
        u.containersAllocated());
  }

  private static int count(AppCounts apps, YarnApplicationState state) {
    return (int) apps.in(state);
  }
}
