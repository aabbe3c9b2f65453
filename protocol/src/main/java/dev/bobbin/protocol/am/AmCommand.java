package dev.bobbin.protocol.am;

/** YARN's (deprecated, still honoured) commands to an AM in an allocate response. */
public enum AmCommand {
  AM_RESYNC,
  AM_SHUTDOWN
}
