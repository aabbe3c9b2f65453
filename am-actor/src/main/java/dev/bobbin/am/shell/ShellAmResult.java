package dev.bobbin.am.shell;

import dev.bobbin.protocol.FinalApplicationStatus;

/** How a distributed-shell attempt ended; {@code unregistered} is false when the RM never confirmed. */
public record ShellAmResult(FinalApplicationStatus finalStatus, String diagnostics, boolean unregistered) {
  /** 0 once the final status is recorded by the RM, whatever it is; 1 otherwise. */
  public int exitCode() {
    return unregistered ? 0 : 1;
  }
}
