package dev.bobbin.node.container;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/** What the NodeManager knows about one container; transitions return new records. */
public record ContainerRecord(
    String containerId,
    String applicationId,
    String user,
    Resource resource,
    NmContainerState state,
    int exitCode,
    String diagnostics,
    Path workDir,
    Path logDir,
    long createdAtMs,
    long finishedAtMs) {

  public static ContainerRecord created(
      String containerId, String applicationId, String user, Resource resource, ContainerLayout.Dirs dirs, long now) {
    return new ContainerRecord(
        containerId, applicationId, user, resource, NmContainerState.NEW, ExitStatus.INVALID, "",
        dirs.workDir(), dirs.logDir(), now, 0);
  }

  public ContainerRecord running() {
    return state == NmContainerState.NEW ? withState(NmContainerState.RUNNING) : this;
  }

  public ContainerRecord killing() {
    return state.isFinal() ? this : withState(NmContainerState.KILLING);
  }

  public ContainerRecord finished(int exitStatus, String diagnostics, boolean killed, long now) {
    NmContainerState end =
        killed ? NmContainerState.DONE
            : exitStatus == ExitStatus.SUCCESS ? NmContainerState.EXITED_WITH_SUCCESS
            : NmContainerState.EXITED_WITH_FAILURE;
    return new ContainerRecord(
        containerId, applicationId, user, resource, end, exitStatus, diagnostics, workDir, logDir, createdAtMs, now);
  }

  public boolean isFinished() {
    return state.isFinal();
  }

  public ContainerStatus toStatus() {
    return isFinished()
        ? ContainerStatus.completed(containerId, exitCode, diagnostics, resource)
        : ContainerStatus.running(containerId, resource);
  }

  private ContainerRecord withState(NmContainerState s) {
    return new ContainerRecord(
        containerId, applicationId, user, resource, s, exitCode, diagnostics, workDir, logDir, createdAtMs,
        finishedAtMs);
  }
}
