package dev.bobbin.core.scheduler;

import dev.bobbin.persistence.JournalCheckpoints;
import dev.bobbin.persistence.JournalScan;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a checkpoint of the scheduler's model in the journal's database, so that a recovering
 * scheduler folds only the events written since ({@link JournalRecovery}) and its recovery is
 * bounded by what is live, not by history. It folds the journal itself rather than copying the
 * live scheduler, whose model runs ahead of and behind its writes: a checkpoint is exactly what
 * the journal said up to its ordering. One runs per cluster (a singleton); two would write the
 * same checkpoints, and the second write of one fails on its key.
 *
 * <p>Each tick folds the events up to the highest ordering seen at the tick before. Orderings are
 * taken when a write starts and become visible when it commits, so a later ordering can be seen
 * before an earlier one; waiting a tick (far longer than a journal write may take) lets every
 * write below the seen ordering commit or fail first, so no event below a checkpoint's ordering
 * turns up after it. The fold runs every tick; a checkpoint is written once enough events have
 * been folded since the last one.
 */
public final class CheckpointWriter extends AbstractBehavior<CheckpointWriter.Command> {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

  /** Its timer's and its own piped results only: they never leave this JVM. */
  public sealed interface Command extends org.apache.pekko.actor.NoSerializationVerificationNeeded {}

  private record Tick() implements Command {}

  private record Stepped(FoldedJournal folded, long seen, long sinceWrite, Throwable error) implements Command {}

  private final ActorSystem<?> system;
  private final long minEvents;
  /** What the journal says up to its ordering, pruned as a checkpoint; null until the checkpoint is read. */
  private FoldedJournal folded;
  /** The highest ordering seen at the last tick; -1 before the first. */
  private long seen = -1;
  /** Events folded since the last checkpoint was written. */
  private long sinceWrite;
  private boolean busy;

  public static Behavior<Command> create(Duration interval, long minEvents) {
    if (minEvents < 1) throw new IllegalArgumentException("minEvents must be at least 1, was " + minEvents);
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(new Tick(), interval);
      return new CheckpointWriter(ctx, minEvents);
    }));
  }

  private CheckpointWriter(ActorContext<Command> ctx, long minEvents) {
    super(ctx);
    this.system = ctx.getSystem();
    this.minEvents = minEvents;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, t -> onTick())
        .onMessage(Stepped.class, this::onStepped)
        .build();
  }

  private Behavior<Command> onTick() {
    if (busy) return this;
    busy = true;
    getContext().pipeToSelf(step(folded, seen, sinceWrite), (s, err) -> err == null ? s
        : new Stepped(folded, seen, sinceWrite, err));
    return this;
  }

  private Behavior<Command> onStepped(Stepped s) {
    busy = false;
    if (s.error() != null) {
      LOG.warn("Could not advance the scheduler's checkpoint: {}", s.error().toString());
    }
    folded = s.folded();
    seen = s.seen();
    sinceWrite = s.sinceWrite();
    return this;
  }

  private CompletionStage<Stepped> step(FoldedJournal from, long target, long foldedSinceWrite) {
    CompletionStage<FoldedJournal> base = from != null ? CompletableFuture.completedFuture(from)
        : JournalRecovery.latestCheckpoint(system);
    return base.thenCompose(b -> advance(b, target)).thenCompose(f -> {
      long since = foldedSinceWrite + f.events();
      CompletionStage<Long> written = since >= minEvents
          ? write(system, f).thenApply(done -> 0L) : CompletableFuture.completedFuture(since);
      return written.thenCompose(left -> JournalScan.highestOrdering(system)
          .thenApply(highest -> new Stepped(new FoldedJournal(f.ordering(), f.model(), 0), highest, left, null)));
    });
  }

  private CompletionStage<FoldedJournal> advance(FoldedJournal base, long target) {
    if (target <= base.ordering()) return CompletableFuture.completedFuture(new FoldedJournal(base.ordering(),
        base.model(), 0));
    return JournalRecovery.foldAfter(system, base, target)
        .thenApply(f -> new FoldedJournal(target, ModelCheckpoint.prune(f.model()), f.events()));
  }

  private static CompletionStage<Void> write(ActorSystem<?> system, FoldedJournal f) {
    long started = System.nanoTime();
    var parts = ModelCheckpoint.parts(f.model());
    return JournalCheckpoints.write(system, ModelCheckpoint.NAME, f.ordering(), parts).thenRun(() ->
        LOG.info(
            "Scheduler checkpoint written at ordering {}: {} applications, {} containers, {} nodes in {} parts, {} ms",
            f.ordering(), f.model().apps().size(), f.model().containers().size(), f.model().nodes().size(),
            parts.size(), (System.nanoTime() - started) / 1_000_000));
  }

  /**
   * Writes a checkpoint of everything in the journal now. Only for a journal nobody writes to
   * meanwhile (a tool, a benchmark's prepared journal), where nothing can still commit below the
   * highest ordering.
   */
  public static CompletionStage<Void> writeQuiescent(ActorSystem<?> system) {
    return JournalRecovery.latestCheckpoint(system).thenCompose(base -> JournalScan.highestOrdering(system)
        .thenCompose(highest -> JournalRecovery.foldAfter(system, base, highest)
            .thenCompose(f -> write(system, new FoldedJournal(highest, ModelCheckpoint.prune(f.model()), 0)))));
  }
}
