package dev.bobbin.chaos;

/** An invariant of design.md that broke, when the harness saw it, and the evidence. */
record Violation(Kind kind, long atMs, String detail) {
  enum Kind {
    /** A container id launched on two NodeManagers, or twice on one. */
    DOUBLE_LAUNCH("double launch"),
    /** A node's running containers, or the RM's allocations on it, above its capacity. */
    OVER_COMMIT("over-committed node"),
    /** A running container ended by the RM's side, or gone, while its application went on. */
    LOST_CONTAINER("lost container"),
    /** An accepted application that did not finish with SUCCEEDED, or that the RM no longer knows. */
    UNFINISHED_APP("application not finished"),
    /** An event in the journal written by a member's incarnation after the survivors had fenced it. */
    STALE_WRITE("write from a downed member"),
    /** An entity whose write the journal refused with a duplicate key (another writer had that sequence number). */
    CONFLICT_STOP("entity stopped by a sequence-number conflict"),
    /** A long-running service's task run twice, or a container it kept across an AM's death ended by a kill. */
    KEPT_CONTAINER("kept container");

    final String label;

    Kind(String label) {
      this.label = label;
    }
  }
}
