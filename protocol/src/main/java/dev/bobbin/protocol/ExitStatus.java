package dev.bobbin.protocol;

/** YARN's {@code ContainerExitStatus} values; any other value is the process exit code. */
public final class ExitStatus {
  public static final int SUCCESS = 0;
  public static final int INVALID = -1000;
  public static final int ABORTED = -100;
  public static final int DISKS_FAILED = -101;
  public static final int PREEMPTED = -102;
  public static final int KILLED_EXCEEDED_VMEM = -103;
  public static final int KILLED_EXCEEDED_PMEM = -104;
  public static final int KILLED_BY_APPMASTER = -105;
  public static final int KILLED_BY_RESOURCEMANAGER = -106;
  public static final int KILLED_AFTER_APP_COMPLETION = -107;

  private ExitStatus() {}

  /**
   * Whether an AM container ending so uses up one of the application's attempts. As in YARN, not
   * when the cluster ended it: preemption, lost work, failed disks, or the RM killing it.
   */
  public static boolean countsAgainstAttempts(int exitStatus) {
    return exitStatus != PREEMPTED && exitStatus != ABORTED && exitStatus != DISKS_FAILED
        && exitStatus != KILLED_BY_RESOURCEMANAGER;
  }
}
