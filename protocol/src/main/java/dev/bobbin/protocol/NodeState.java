package dev.bobbin.protocol;

/** YARN's {@code NodeState}. */
public enum NodeState {
  NEW,
  RUNNING,
  UNHEALTHY,
  DECOMMISSIONED,
  LOST,
  REBOOTED,
  DECOMMISSIONING,
  SHUTDOWN;

  public boolean isUsable() {
    return this == NEW || this == RUNNING || this == DECOMMISSIONING;
  }
}
