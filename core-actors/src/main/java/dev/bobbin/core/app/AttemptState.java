package dev.bobbin.core.app;

/** The subset of YARN's {@code RMAppAttemptState} that Bobbin's attempts pass through. */
public enum AttemptState {
  SCHEDULED,
  ALLOCATED,
  RUNNING,
  FINISHED,
  FAILED,
  KILLED;

  public boolean isFinal() {
    return this == FINISHED || this == FAILED || this == KILLED;
  }
}
