package dev.bobbin.http;

import dev.bobbin.core.RmCore;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.rest.ClusterMetricsInfo;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * YARN's {@code ClusterMetricsInfo}, measured from the applications and the scheduler's usage
 * report; also the source of {@code /metrics}. What Bobbin does not track (reservations, pending
 * containers, unhealthy, decommissioned, rebooted or shut-down nodes) is 0 here, for YARN's
 * clients, and left out of {@code /metrics}.
 */
final class ClusterMetrics {
  private ClusterMetrics() {}

  /** The one place the figures are read from the RM. */
  static CompletionStage<ClusterMetricsInfo> measure(RmCore core) {
    return core.applications().thenCombine(core.usage(), ClusterMetrics::of);
  }

  static ClusterMetricsInfo of(List<AppReport> apps, SchedulerProtocol.UsageReport u) {
    Map<YarnApplicationState, Integer> byState = new EnumMap<>(YarnApplicationState.class);
    for (AppReport r : apps) byState.merge(r.state().toYarn(), 1, Integer::sum);
    int failed = byState.getOrDefault(YarnApplicationState.FAILED, 0);
    int killed = byState.getOrDefault(YarnApplicationState.KILLED, 0);
    int pending = byState.getOrDefault(YarnApplicationState.ACCEPTED, 0)
        + byState.getOrDefault(YarnApplicationState.SUBMITTED, 0);
    int running = u.apps().values().stream().mapToInt(SchedulerProtocol.AppUsage::runningContainers).sum();
    var capacity = u.clusterCapacity();
    var used = u.clusterUsed();
    return new ClusterMetricsInfo(
        apps.size(),
        byState.getOrDefault(YarnApplicationState.FINISHED, 0) + failed + killed,
        pending,
        byState.getOrDefault(YarnApplicationState.RUNNING, 0),
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
        u.activeNodes() + u.lostNodes(),
        u.activeNodes(),
        u.lostNodes(),
        0, // unhealthyNodes
        0, // decommissioningNodes
        0, // decommissionedNodes
        0, // rebootedNodes
        0, // shutdownNodes
        u.containersAllocated());
  }
}
