package dev.bobbin.chaos;

/** What is done to an RM member process. */
enum FaultKind {
  /** {@code kill -9} (Process.destroyForcibly), then a restart on the same ports. */
  KILL,
  /** {@code kill -STOP} until another member has downed it, then {@code kill -CONT}; then a restart. */
  PAUSE,
  /** {@code kill -TERM} (Process.destroy): a graceful leave, then a restart. */
  TERM;

  String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
