package dev.bobbin.core.scheduler;

import dev.bobbin.persistence.JournalCheckpoints;
import dev.bobbin.persistence.JournalScan;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongPredicate;
import org.apache.pekko.actor.typed.ActorRef;
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
 * <p>Each tick folds the events written since the last one, in ordering order, and stops before
 * a missing ordering. Orderings are taken when a write starts and become visible when it commits,
 * so a later one can be seen before an earlier one; folding past the gap could leave the earlier
 * event out of every checkpoint once it commits. An ordering that stays missing for
 * {@code missingWait} (far longer than a journal write takes) belongs to a write that failed or
 * whose process died, and the fold then goes past it. So a checkpoint trails the journal by about
 * one tick, and by the wait only just after such a failure. A checkpoint is written once enough
 * events have been folded since the last one.
 */
public final class CheckpointWriter extends AbstractBehavior<CheckpointWriter.Command> {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointWriter.class);

  /** Its timer's, its own piped results and local inspection: they never leave this JVM. */
  public sealed interface Command extends org.apache.pekko.actor.NoSerializationVerificationNeeded {}

  private record Tick() implements Command {}

  /** Asks where the fold is; for a tool or a test on the member that runs the writer. */
  public record GetProgress(ActorRef<Progress> replyTo) implements Command {}

  /**
   * @param ordering the fold has every event up to it (-1 before it read the checkpoint)
   * @param waitingFor missing orderings it stopped before and has not gone past yet
   */
  public record Progress(long ordering, List<Long> waitingFor) {}

  /** @param stoppedAt the missing ordering the fold stopped before, 0 if it did not stop */
  private record Stepped(FoldedJournal folded, long sinceWrite, long stoppedAt, Throwable error)
      implements Command {}

  /** How long an ordering may stay missing before the fold goes past it; see the class comment. */
  public static final Duration MISSING_WAIT = Duration.ofSeconds(30);

  private final ActorSystem<?> system;
  private final long minEvents;
  private final long missingWaitNanos;
  /** What the journal says up to its ordering, pruned as a checkpoint; null until the checkpoint is read. */
  private FoldedJournal folded;
  /** Events folded since the last checkpoint was written. */
  private long sinceWrite;
  /** Missing orderings the fold stopped before, with when it first did (System.nanoTime). */
  private final TreeMap<Long, Long> missingSince = new TreeMap<>();
  private boolean busy;

  public static Behavior<Command> create(Duration interval, long minEvents) {
    return create(interval, minEvents, MISSING_WAIT);
  }

  public static Behavior<Command> create(Duration interval, long minEvents, Duration missingWait) {
    if (minEvents < 1) throw new IllegalArgumentException("minEvents must be at least 1, was " + minEvents);
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(new Tick(), interval);
      return new CheckpointWriter(ctx, minEvents, missingWait);
    }));
  }

  private CheckpointWriter(ActorContext<Command> ctx, long minEvents, Duration missingWait) {
    super(ctx);
    this.system = ctx.getSystem();
    this.minEvents = minEvents;
    this.missingWaitNanos = missingWait.toNanos();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, t -> onTick())
        .onMessage(Stepped.class, this::onStepped)
        .onMessage(GetProgress.class, m -> {
          m.replyTo().tell(new Progress(folded == null ? -1 : folded.ordering(), List.copyOf(missingSince.keySet())));
          return this;
        })
        .build();
  }

  private Behavior<Command> onTick() {
    if (busy) return this;
    busy = true;
    long now = System.nanoTime();
    Set<Long> passable = new HashSet<>();
    missingSince.forEach((ordering, since) -> {
      if (now - since >= missingWaitNanos) passable.add(ordering);
    });
    getContext().pipeToSelf(step(folded, sinceWrite, passable::contains), (s, err) -> err == null ? s
        : new Stepped(folded, sinceWrite, 0, err));
    return this;
  }

  private Behavior<Command> onStepped(Stepped s) {
    busy = false;
    if (s.error() != null) {
      LOG.warn("Could not advance the scheduler's checkpoint: {}", s.error().toString());
    }
    folded = s.folded();
    sinceWrite = s.sinceWrite();
    if (folded != null) missingSince.headMap(folded.ordering(), true).clear();
    if (s.stoppedAt() > 0 && missingSince.putIfAbsent(s.stoppedAt(), System.nanoTime()) == null) {
      LOG.debug("Scheduler checkpoint waits for ordering {}, not committed yet", s.stoppedAt());
    }
    return this;
  }

  private CompletionStage<Stepped> step(FoldedJournal from, long foldedSinceWrite, LongPredicate passMissing) {
    CompletionStage<FoldedJournal> base = from != null ? CompletableFuture.completedFuture(from)
        : JournalRecovery.latestCheckpoint(system);
    return base.thenCompose(b -> JournalScan.highestOrdering(system).thenCompose(target ->
        advance(system, b, target, passMissing).thenCompose(f -> {
          long stoppedAt = f.ordering() < target ? f.ordering() + 1 : 0;
          long since = foldedSinceWrite + f.events();
          CompletionStage<Long> written = since >= minEvents
              ? write(system, f).thenApply(done -> 0L) : CompletableFuture.completedFuture(since);
          return written.thenApply(left ->
              new Stepped(new FoldedJournal(f.ordering(), f.model(), 0), left, stoppedAt, null));
        })));
  }

  private static CompletionStage<FoldedJournal> advance(ActorSystem<?> system, FoldedJournal base, long target,
      LongPredicate passMissing) {
    if (target <= base.ordering()) return CompletableFuture.completedFuture(new FoldedJournal(base.ordering(),
        base.model(), 0));
    return JournalRecovery.foldForCheckpoint(system, base, target, passMissing)
        .thenApply(f -> new FoldedJournal(f.ordering(), ModelCheckpoint.prune(f.model()), f.events()));
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
        .thenCompose(highest -> advance(system, base, highest, missing -> true))
        .thenCompose(f -> write(system, f)));
  }
}
