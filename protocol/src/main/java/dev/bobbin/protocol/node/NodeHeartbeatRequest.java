package dev.bobbin.protocol.node;

import dev.bobbin.protocol.ContainerStatus;
import java.util.List;

/**
 * NM → RM {@code POST /ws/v1/bobbin/nm/heartbeat}. {@code responseId} is the id of the last
 * response the NM received (0 after registering). Completed containers are reported until the RM
 * lists them in {@code containersToBeRemovedFromNm}. {@code lastKnownContainerTokenKeyId} is the
 * newest container-token key the NM holds (YARN's lastKnownContainerTokenMasterKey): the RM answers
 * with its keys when it has a newer one. {@code healthy}, {@code healthReport} and {@code
 * lastHealthReportTime} are YARN's NodeHealthStatus: the node's own verdict from its health script
 * and disk checks, the reasons (empty when there are none), and when it last checked (epoch ms).
 */
public record NodeHeartbeatRequest(
    String nodeId,
    int responseId,
    List<ContainerStatus> containerStatuses,
    boolean healthy,
    String healthReport,
    int lastKnownContainerTokenKeyId,
    long lastHealthReportTime) {
  public NodeHeartbeatRequest {
    containerStatuses = containerStatuses == null ? List.of() : List.copyOf(containerStatuses);
    healthReport = healthReport == null ? "" : healthReport;
  }

  public NodeHeartbeatRequest(
      String nodeId, int responseId, List<ContainerStatus> containerStatuses, boolean healthy, String healthReport,
      int lastKnownContainerTokenKeyId) {
    this(nodeId, responseId, containerStatuses, healthy, healthReport, lastKnownContainerTokenKeyId, 0);
  }

  public NodeHeartbeatRequest(
      String nodeId, int responseId, List<ContainerStatus> containerStatuses, boolean healthy, String healthReport) {
    this(nodeId, responseId, containerStatuses, healthy, healthReport, 0, 0);
  }
}
