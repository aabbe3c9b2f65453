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
}
