package dev.bobbin.protocol;

/** YARN's {@code FinalApplicationStatus}: set by the AM when it unregisters, or by the RM. */
public enum FinalApplicationStatus {
  UNDEFINED,
  SUCCEEDED,
  FAILED,
  KILLED,
  ENDED
}
