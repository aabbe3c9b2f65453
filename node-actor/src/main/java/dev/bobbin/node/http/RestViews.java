package dev.bobbin.node.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.bobbin.node.NodeView;
import dev.bobbin.node.container.ContainerRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** YARN NM REST shapes (reference §2.17), built from a {@link NodeView}. */
final class RestViews {
  private static final long MB = 1024 * 1024;

  private RestViews() {}

  record NodeInfo(
      String id,
      String nodeHostName,
      @JsonProperty("nodeHTTPAddress") String nodeHttpAddress,
      @JsonProperty("totalPmemAllocatedContainersMB") long totalPmemAllocatedContainersMB,
      @JsonProperty("totalVmemAllocatedContainersMB") long totalVmemAllocatedContainersMB,
      @JsonProperty("totalVCoresAllocatedContainers") long totalVCoresAllocatedContainers,
      long lastNodeUpdateTime,
      String healthReport,
      boolean nodeHealthy,
      String nodeManagerVersion,
      String nodeManagerBuildVersion,
      String nodeManagerVersionBuiltOn,
      String hadoopVersion,
      String hadoopBuildVersion,
      String hadoopVersionBuiltOn,
      String rmLinkState,
      String rmAddress,
      @JsonProperty("allocatedMB") long allocatedMB,
      @JsonProperty("allocatedVCores") long allocatedVCores,
      long containersRunning) {}

  /**
   * YARN's container report, and what the container monitor last measured of a running container
   * (Bobbin's fields: null until it was measured, and once it ended).
   */
  record ContainerInfo(
      String id,
      String state,
      String nodeId,
      String containerLogsLink,
      String user,
      int exitCode,
      String diagnostics,
      @JsonProperty("totalMemoryNeededMB") long totalMemoryNeededMB,
      @JsonProperty("totalVCoresNeeded") int totalVCoresNeeded,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("physicalMemoryUsedMB") Long physicalMemoryUsedMB,
      @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("virtualMemoryUsedMB") Long virtualMemoryUsedMB,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long cpuTimeMillis,
      @JsonInclude(JsonInclude.Include.NON_NULL) Float cpuUsagePercentPerCore) {}

  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record AppInfo(String id, String user, String state, List<String> containerids) {}

  record LogFileInfo(String fileName, String fileSize, String lastModifiedTime) {}

  static Map<String, Object> nodeInfo(NodeView v) {
    // YARN reports the memory the NM offers to containers here, not what is in use, and the time of
    // its last health check as lastNodeUpdateTime.
    var info = new NodeInfo(
        v.identity().nodeId(), v.identity().host(), v.identity().httpAddress(),
        v.capability().memory(), Math.round(v.capability().memory() * 2.1), v.capability().vCores(),
        v.health().checkedAt(), v.health().report(), v.health().healthy(), v.version(), v.version(), "", v.version(), v.version(), "",
        v.rmLink().name(), v.rmAddress(), v.allocated().memory(), v.allocated().vCores(), v.runningContainers());
    return Map.of("nodeInfo", info);
  }

  static ContainerInfo container(NodeView v, ContainerRecord c) {
    String logs = v.identity().webUrl() + "/ws/v1/node/containers/" + c.containerId() + "/logs";
    var usage = c.isFinished() ? null : v.usages().of(c.containerId()).orElse(null);
    return new ContainerInfo(c.containerId(), c.state().name(), v.identity().nodeId(), logs, c.user(), c.exitCode(),
        c.diagnostics(), c.resource().memory(), c.resource().vCores(),
        usage == null ? null : usage.pmemBytes() / MB, usage == null ? null : usage.vmemBytes() / MB,
        usage == null ? null : usage.cpuMillis(), usage == null ? null : usage.cpuPercentPerCore());
  }

  static Map<String, Object> containers(NodeView v) {
    List<ContainerInfo> list = v.containers().stream().map(c -> container(v, c)).toList();
    return Map.of("containers", Map.of("container", list));
  }

  static Optional<ContainerRecord> find(NodeView v, String containerId) {
    return v.containers().stream().filter(c -> c.containerId().equals(containerId)).findFirst();
  }

  static List<AppInfo> apps(NodeView v) {
    Map<String, List<ContainerRecord>> byApp = new TreeMap<>();
    v.containers().forEach(c -> byApp.computeIfAbsent(c.applicationId(), k -> new ArrayList<>()).add(c));
    List<AppInfo> apps = new ArrayList<>();
    byApp.forEach((appId, cs) -> {
      boolean anyLive = cs.stream().anyMatch(c -> !c.isFinished());
      String state = !v.finishedApplications().contains(appId) ? "RUNNING"
          : anyLive ? "FINISHING_CONTAINERS_WAIT" : "FINISHED";
      List<String> live = cs.stream().filter(c -> !c.isFinished()).map(ContainerRecord::containerId).toList();
      apps.add(new AppInfo(appId, cs.get(0).user(), state, live));
    });
    return apps;
  }
}
