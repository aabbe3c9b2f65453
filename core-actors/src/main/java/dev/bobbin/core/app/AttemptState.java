package dev.bobbin.core.app;

/** The subset of YARN's {@code RMAppAttemptState} that Bobbin's attempts pass through. */
public enum AttemptState {
  SCHEDULED,
  ALLOCATED,
  /** An unmanaged AM's attempt: nothing to launch, it waits for the client's AM to register. */
  LAUNCHED,
  RUNNING,
  FINISHED,
  FAILED,
  KILLED;

  public boolean isFinal() {
    return this == FINISHED || this == FAILED || this == KILLED;
  }
}
