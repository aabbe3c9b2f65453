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

  /** In service: the scheduler may place new containers on it. */
  public boolean isUsable() {
    return this == NEW || this == RUNNING;
  }

  /**
   * The RM answers its heartbeats and counts it among the live nodes: in service, UNHEALTHY or
   * DECOMMISSIONING (its containers run on, it takes no new ones). Such a node that falls silent is
   * LOST.
   */
  public boolean isAnswered() {
    return isUsable() || this == UNHEALTHY || this == DECOMMISSIONING;
  }
}
