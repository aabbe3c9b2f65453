package dev.bobbin.protocol;

/** What the RM tells a NodeManager to do in a registration or heartbeat response. */
public enum NodeAction {
  NORMAL,
  RESYNC,
  SHUTDOWN
}
