package dev.bobbin.node.recovery;

import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.NmContainerState;
import dev.bobbin.node.container.ProcessIdentity;
import dev.bobbin.protocol.Resource;
import java.nio.file.Path;

/**
 * What the state store keeps of one container: what it was started with that its reports need,
 * its process once launched, the kill asked for, and how it ended. Transitions return new records.
 *
 * @param state NEW until its process is known, then RUNNING or KILLING, then a final state
 * @param pid 0 until launched
 * @param startTicks and {@code bootId}: which process with that pid is the container's ({@link ProcessIdentity})
 * @param killReason null unless the NodeManager was asked to kill it
 */
public record StoredContainer(
    String containerId,
    String applicationId,
    String user,
    Resource resource,
    String workDir,
    String logDir,
    long createdAtMs,
    NmContainerState state,
    long pid,
    long startTicks,
    String bootId,
    KillReason killReason,
    String killDiagnostics,
    int exitStatus,
    String diagnostics,
    long finishedAtMs) {

  public static StoredContainer accepted(ContainerRecord r) {
    return new StoredContainer(r.containerId(), r.applicationId(), r.user(), r.resource(), r.workDir().toString(),
        r.logDir().toString(), r.createdAtMs(), r.state(), 0, -1, "", null, "", r.exitCode(), r.diagnostics(), 0);
  }

  public StoredContainer launched(ProcessIdentity p) {
    NmContainerState s = state == NmContainerState.NEW ? NmContainerState.RUNNING : state;
    return new StoredContainer(containerId, applicationId, user, resource, workDir, logDir, createdAtMs, s, p.pid(),
        p.startTicks(), p.bootId(), killReason, killDiagnostics, exitStatus, diagnostics, finishedAtMs);
  }

  public StoredContainer killing(KillReason reason, String why) {
    return new StoredContainer(containerId, applicationId, user, resource, workDir, logDir, createdAtMs,
        NmContainerState.KILLING, pid, startTicks, bootId, reason, why, exitStatus, diagnostics, finishedAtMs);
  }

  public StoredContainer completed(ContainerRecord done) {
    return new StoredContainer(containerId, applicationId, user, resource, workDir, logDir, createdAtMs, done.state(),
        pid, startTicks, bootId, killReason, killDiagnostics, done.exitCode(), done.diagnostics(), done.finishedAtMs());
  }

  /** Whether its process was known: launched by the NodeManager, which recorded it. */
  public boolean hasProcess() {
    return pid > 0;
  }

  public ProcessIdentity process() {
    return new ProcessIdentity(pid, startTicks, bootId);
  }

  /** The NodeManager's record of it, as it was stored. */
  public ContainerRecord record() {
    return new ContainerRecord(containerId, applicationId, user, resource, state, exitStatus, diagnostics,
        Path.of(workDir), Path.of(logDir), createdAtMs, finishedAtMs);
  }
}
