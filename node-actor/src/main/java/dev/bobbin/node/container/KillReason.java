package dev.bobbin.node.container;

import dev.bobbin.protocol.ExitStatus;

/** Why a container is killed; the reason, not the signal, decides the reported exit status. */
public enum KillReason {
  BY_APPMASTER(ExitStatus.KILLED_BY_APPMASTER, "Container killed by the ApplicationMaster."),
  BY_RESOURCEMANAGER(ExitStatus.KILLED_BY_RESOURCEMANAGER, "Container killed by the ResourceManager."),
  AFTER_APP_COMPLETION(ExitStatus.KILLED_AFTER_APP_COMPLETION, "Container killed on application completion."),
  NODE_SHUTDOWN(ExitStatus.ABORTED, "Container killed because the NodeManager is shutting down."),
  /** The container monitor's; the kill carries its own diagnostics (usage, limit, processes). */
  EXCEEDED_PMEM(ExitStatus.KILLED_EXCEEDED_PMEM, "Container killed for using more than its physical memory."),
  EXCEEDED_VMEM(ExitStatus.KILLED_EXCEEDED_VMEM, "Container killed for using more than its virtual memory.");

  private final int exitStatus;
  private final String diagnostics;

  KillReason(int exitStatus, String diagnostics) {
    this.exitStatus = exitStatus;
    this.diagnostics = diagnostics;
  }

  public int exitStatus() {
    return exitStatus;
  }

  public String diagnostics() {
    return diagnostics;
  }
}
