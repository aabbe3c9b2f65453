package dev.bobbin.protocol;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A container as a NodeManager reports it. {@code exitStatus} is the process exit code or one of
 * {@link ExitStatus}; it is {@link ExitStatus#INVALID} while the container runs.
 */
public record ContainerStatus(
    String containerId, ContainerState state, int exitStatus, String diagnostics, Resource capability)
    implements CborSerializable {
  public ContainerStatus {
    diagnostics = diagnostics == null ? "" : diagnostics;
  }

  public static ContainerStatus running(String containerId, Resource capability) {
    return new ContainerStatus(containerId, ContainerState.RUNNING, ExitStatus.INVALID, "", capability);
  }

  public static ContainerStatus completed(
      String containerId, int exitStatus, String diagnostics, Resource capability) {
    return new ContainerStatus(containerId, ContainerState.COMPLETE, exitStatus, diagnostics, capability);
  }

  @JsonIgnore
  public boolean isComplete() {
    return state == ContainerState.COMPLETE;
  }
}
