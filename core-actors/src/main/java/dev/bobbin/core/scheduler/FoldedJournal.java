package dev.bobbin.core.scheduler;

/**
 * The scheduler's model as folded from every event up to {@code ordering}; {@code events} is how
 * many events the last scan added to it.
 */
record FoldedJournal(long ordering, RecoveredModel model, long events) {
  static final FoldedJournal EMPTY = new FoldedJournal(0, RecoveredModel.EMPTY, 0);
}
