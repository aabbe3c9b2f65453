package dev.bobbin.core.app;

import dev.bobbin.protocol.YarnApplicationState;

/** YARN's internal {@code RMAppState}; {@code GET /apps/{id}/state} reports it as is. */
public enum AppState {
  NEW,
  NEW_SAVING,
  SUBMITTED,
  ACCEPTED,
  RUNNING,
  FINAL_SAVING,
  FINISHING,
  FINISHED,
  FAILED,
  KILLING,
  KILLED;

  public YarnApplicationState toYarn() {
    return switch (this) {
      case NEW -> YarnApplicationState.NEW;
      case NEW_SAVING -> YarnApplicationState.NEW_SAVING;
      case SUBMITTED -> YarnApplicationState.SUBMITTED;
      case ACCEPTED -> YarnApplicationState.ACCEPTED;
      case RUNNING, FINAL_SAVING, KILLING -> YarnApplicationState.RUNNING;
      case FINISHING, FINISHED -> YarnApplicationState.FINISHED;
      case FAILED -> YarnApplicationState.FAILED;
      case KILLED -> YarnApplicationState.KILLED;
    };
  }

  public boolean isFinal() {
    return this == FINISHED || this == FAILED || this == KILLED;
  }
}
