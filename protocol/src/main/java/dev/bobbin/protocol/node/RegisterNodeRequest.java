package dev.bobbin.protocol.node;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import java.util.List;

/**
 * NM → RM {@code POST /ws/v1/bobbin/nm/register}. {@code nodeId} is {@code host:port}; on a
 * re-registration (resync) {@code containerStatuses} lists every container the NM still knows.
 */
public record RegisterNodeRequest(
    String nodeId,
    String host,
    int port,
    String httpAddress,
    String rack,
    Resource capability,
    List<ContainerStatus> containerStatuses,
    List<String> runningApplications,
    String version) {
  public RegisterNodeRequest {
    containerStatuses = containerStatuses == null ? List.of() : List.copyOf(containerStatuses);
    runningApplications = runningApplications == null ? List.of() : List.copyOf(runningApplications);
    rack = rack == null || rack.isBlank() ? "/default-rack" : rack;
  }
}
