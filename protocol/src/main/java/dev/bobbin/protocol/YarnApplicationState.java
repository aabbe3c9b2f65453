package dev.bobbin.protocol;

/** YARN's public application state, as {@code GET /apps} reports it. */
public enum YarnApplicationState {
  NEW,
  NEW_SAVING,
  SUBMITTED,
  ACCEPTED,
  RUNNING,
  FINISHED,
  FAILED,
  KILLED;

  public boolean isFinal() {
    return this == FINISHED || this == FAILED || this == KILLED;
  }
}
