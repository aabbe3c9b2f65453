package dev.bobbin.http;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** YARN's {@code ClusterMetricsInfo}, also the source of the Prometheus figures. */
final class ClusterMetrics {
  private ClusterMetrics() {}

  static Map<String, Object> of(List<AppReport> apps, SchedulerProtocol.UsageReport u) {
    Map<YarnApplicationState, Integer> byState = new LinkedHashMap<>();
    for (AppReport r : apps) byState.merge(r.state().toYarn(), 1, Integer::sum);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("appsSubmitted", apps.size());
    m.put("appsCompleted", count(byState, YarnApplicationState.FINISHED) + count(byState, YarnApplicationState.FAILED)
        + count(byState, YarnApplicationState.KILLED));
    m.put("appsPending", count(byState, YarnApplicationState.ACCEPTED) + count(byState, YarnApplicationState.SUBMITTED));
    m.put("appsRunning", count(byState, YarnApplicationState.RUNNING));
    m.put("appsFailed", count(byState, YarnApplicationState.FAILED));
    m.put("appsKilled", count(byState, YarnApplicationState.KILLED));
    int running = u.apps().values().stream().mapToInt(SchedulerProtocol.AppUsage::runningContainers).sum();
    m.put("containersAllocated", running);
    m.put("containersReserved", 0);
    m.put("containersPending", 0);
    m.put("reservedMB", 0);
    m.put("availableMB", u.clusterCapacity().memory() - u.clusterUsed().memory());
    m.put("allocatedMB", u.clusterUsed().memory());
    m.put("totalMB", u.clusterCapacity().memory());
    m.put("reservedVirtualCores", 0);
    m.put("availableVirtualCores", u.clusterCapacity().vCores() - u.clusterUsed().vCores());
    m.put("allocatedVirtualCores", u.clusterUsed().vCores());
    m.put("totalVirtualCores", u.clusterCapacity().vCores());
    m.put("totalNodes", u.activeNodes() + u.lostNodes());
    m.put("activeNodes", u.activeNodes());
    m.put("lostNodes", u.lostNodes());
    m.put("unhealthyNodes", 0);
    m.put("decommissioningNodes", 0);
    m.put("decommissionedNodes", 0);
    m.put("rebootedNodes", 0);
    m.put("shutdownNodes", 0);
    m.put("totalAllocationsSinceStart", u.containersAllocated());
    return m;
  }

  private static int count(Map<YarnApplicationState, Integer> m, YarnApplicationState s) {
    return m.getOrDefault(s, 0);
  }
}
