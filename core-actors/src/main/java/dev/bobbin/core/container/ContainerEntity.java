package dev.bobbin.core.container;

import dev.bobbin.core.base.JournalBackoff;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.SnapshotSelectionCriteria;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.Recovery;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * A container: allocated by the scheduler, launched on a node, completed with an exit status. The
 * scheduler hands a container to its AM only after {@link Allocate} has been persisted here.
 *
 * <p>Its history is bounded: each event happens at most once (the command handler refuses or
 * acknowledges a repeat without persisting), so a container has at most six events. It never
 * snapshots, and its recovery replays those events without asking the snapshot store: one journal
 * query fewer for every container entity that starts, which is every allocation.
 *
 * <p>Once it has ended (completed or withdrawn) it asks its shard to stop it. Nothing more happens
 * to an ended container but reports and repeats, and a stopped one starts again for those. Left
 * to sharding's idle timeout, every container of the last two minutes would stay in the heap.
 */
public final class ContainerEntity
    extends EventSourcedBehaviorWithEnforcedReplies<
        ContainerEntity.Command, ContainerEntity.Event, ContainerEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY =
      EntityTypeKey.create(Command.class, "Container");

  /** What the scheduler decided for this container. */
  public record Allocation(
      String containerId, String appId, String attemptId, String nodeId, String nodeHttpAddress,
      Resource resource, int priority, long allocationRequestId, boolean am) implements CborSerializable {}

  // Commands

  public sealed interface Command extends CborSerializable {}

  /** Idempotent: the same allocation again is acknowledged without a second event. */
  public record Allocate(Allocation allocation, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record MarkRunning(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Complete(int exitStatus, String diagnostics, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record Get(ActorRef<StatusReply<Report>> replyTo) implements Command {}

  /**
   * The scheduler gave up on this allocation (its write was not acknowledged in time) and handed
   * it to no AM. Ends the container whether or not the allocation was recorded, so a write that
   * landed late leaves no allocation a recovering scheduler would count, and one still on its way
   * is refused. A running container is not withdrawn.
   */
  public record Withdraw(ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** The scheduler will take this container back after the grace period; the reason is kept. */
  public record RequestPreemption(PreemptionRecord record, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  /** The scheduler no longer takes this container back (the preemption {@code record} is cancelled). */
  public record CancelPreemption(PreemptionRecord record, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Report(
      Allocation allocation, Phase phase, long allocatedTime, long startedTime, long finishedTime,
      int exitStatus, String diagnostics, PreemptionRecord preemption) implements CborSerializable {}

  // Events

  public sealed interface Event extends CborSerializable {}

  public record Allocated(Allocation allocation, long time) implements Event {}

  public record Launched(long time) implements Event {}

  public record Completed(int exitStatus, String diagnostics, long time) implements Event {}

  public record PreemptionRequested(PreemptionRecord record) implements Event {}

  public record PreemptionCancelled() implements Event {}

  /**
   * The completion reached the AM. Nothing writes it: deliveries are recorded by the application,
   * one event per allocate response ({@link dev.bobbin.core.app.ApplicationEntity.CompletionsDelivered}).
   * Journals may hold it, one per container, and they replay with it.
   */
  public record CompletionDelivered() implements Event {}

  public record Withdrawn(long time) implements Event {}

  static final String WITHDRAWN = "Allocation withdrawn: the scheduler had no acknowledgement of it in time";

  // State

  /** YARN's RMContainerState, reduced to what is persisted. */
  public enum Phase { NEW, ALLOCATED, RUNNING, COMPLETED }

  public record State(
      Allocation allocation, Phase phase, long allocatedTime, long startedTime, long finishedTime,
      int exitStatus, String diagnostics, PreemptionRecord preemption, boolean completionDelivered)
      implements CborSerializable {

    public static final State EMPTY = new State(null, Phase.NEW, 0, 0, 0, ExitStatus.INVALID, "", null, false);

    public State apply(Event e) {
      if (e instanceof Allocated a) {
        return new State(a.allocation(), Phase.ALLOCATED, a.time(), 0, 0, ExitStatus.INVALID, "", null, false);
      } else if (e instanceof Launched l) {
        return new State(allocation, Phase.RUNNING, allocatedTime, l.time(), 0, exitStatus, diagnostics, preemption,
            false);
      } else if (e instanceof Completed c) {
        return new State(allocation, Phase.COMPLETED, allocatedTime, startedTime, c.time(),
            c.exitStatus(), c.diagnostics(), preemption, false);
      } else if (e instanceof PreemptionRequested p) {
        return new State(allocation, phase, allocatedTime, startedTime, finishedTime, exitStatus, diagnostics,
            p.record(), completionDelivered);
      } else if (e instanceof PreemptionCancelled) {
        return new State(allocation, phase, allocatedTime, startedTime, finishedTime, exitStatus, diagnostics, null,
            completionDelivered);
      } else if (e instanceof Withdrawn w) {
        // No AM ever heard of it: nothing to deliver.
        return new State(allocation, Phase.COMPLETED, allocatedTime, startedTime, w.time(), ExitStatus.ABORTED,
            WITHDRAWN, preemption, true);
      } else if (e instanceof CompletionDelivered) {
        return new State(allocation, phase, allocatedTime, startedTime, finishedTime, exitStatus, diagnostics,
            preemption, true);
      }
      throw new IllegalArgumentException("Unknown event " + e);
    }

    Report report() {
      return new Report(allocation, phase, allocatedTime, startedTime, finishedTime, exitStatus, diagnostics,
          preemption);
    }
  }

  private final String containerId;
  private final Clock clock;
  private final Runnable whenEnded;

  private ContainerEntity(String containerId, Clock clock, Runnable whenEnded) {
    super(PersistenceId.of(TYPE_KEY.name(), containerId), JournalBackoff.STRATEGY);
    this.containerId = containerId;
    this.clock = clock;
    this.whenEnded = whenEnded;
  }

  /** A container that stays alive until it is stopped from outside. */
  public static Behavior<Command> create(String containerId, Clock clock) {
    return new ContainerEntity(containerId, clock, () -> {});
  }

  /** A sharded container, which asks {@code shard} to passivate it once it has ended. */
  public static Behavior<Command> create(
      String containerId, Clock clock, ActorRef<ClusterSharding.ShardCommand> shard) {
    return Behaviors.setup(ctx -> new ContainerEntity(containerId, clock,
        () -> shard.tell(new ClusterSharding.Passivate<>(ctx.getSelf()))));
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Allocate.class, this::onAllocate)
        .onCommand(MarkRunning.class, this::onMarkRunning)
        .onCommand(Complete.class, this::onComplete)
        .onCommand(RequestPreemption.class, (s, c) -> s.phase() == Phase.NEW || s.phase() == Phase.COMPLETED
                || s.preemption() != null
            ? Effect().reply(c.replyTo(), StatusReply.ack())
            : Effect().persist(new PreemptionRequested(c.record())).thenReply(c.replyTo(), ns -> StatusReply.ack()))
        .onCommand(CancelPreemption.class, (s, c) -> s.phase() == Phase.COMPLETED
                || !c.record().equals(s.preemption())
            ? Effect().reply(c.replyTo(), StatusReply.ack())
            : Effect().persist(new PreemptionCancelled()).thenReply(c.replyTo(), ns -> StatusReply.ack()))
        .onCommand(Withdraw.class, this::onWithdraw)
        .onCommand(Get.class, (s, c) -> s.allocation() == null
            ? Effect().reply(c.replyTo(), StatusReply.error("container " + containerId + " not found"))
            : Effect().reply(c.replyTo(), StatusReply.success(s.report())))
        .build();
  }

  private ReplyEffect<Event, State> onAllocate(State s, Allocate c) {
    if (s.phase() != Phase.NEW && s.allocation() == null) {
      return Effect().reply(c.replyTo(), StatusReply.error("Container id " + containerId + " was withdrawn"));
    }
    if (s.phase() != Phase.NEW) {
      return c.allocation().equals(s.allocation())
          ? Effect().reply(c.replyTo(), StatusReply.ack())
          : Effect().reply(c.replyTo(), StatusReply.error("Container id " + containerId + " is already allocated"));
    }
    if (!c.allocation().containerId().equals(containerId)) {
      return Effect().reply(c.replyTo(), StatusReply.error("Allocation is for another container"));
    }
    return Effect().persist(new Allocated(c.allocation(), clock.millis()))
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onMarkRunning(State s, MarkRunning c) {
    if (s.phase() == Phase.NEW) {
      return Effect().reply(c.replyTo(), StatusReply.error("container " + containerId + " not found"));
    }
    if (s.phase() != Phase.ALLOCATED) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().persist(new Launched(clock.millis())).thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private ReplyEffect<Event, State> onWithdraw(State s, Withdraw c) {
    return switch (s.phase()) {
      case NEW, ALLOCATED ->
          Effect().persist(new Withdrawn(clock.millis())).thenRun(ns -> whenEnded.run())
              .thenReply(c.replyTo(), ns -> StatusReply.ack());
      case RUNNING -> Effect().reply(c.replyTo(), StatusReply.error("container " + containerId + " is running"));
      case COMPLETED -> Effect().reply(c.replyTo(), StatusReply.ack());
    };
  }

  private ReplyEffect<Event, State> onComplete(State s, Complete c) {
    if (s.phase() == Phase.NEW) {
      return Effect().reply(c.replyTo(), StatusReply.error("container " + containerId + " not found"));
    }
    if (s.phase() == Phase.COMPLETED) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().persist(new Completed(c.exitStatus(), c.diagnostics(), clock.millis()))
        .thenRun(ns -> whenEnded.run())
        .thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.disabled();
  }

  /**
   * A container never snapshots, and a snapshot a journal may hold of one (taken every
   * bobbin.rm.snapshot-every events) is ignored: retention never deleted events, so they are all
   * still there.
   */
  @Override
  public Recovery recovery() {
    return Recovery.withSnapshotSelectionCriteria(SnapshotSelectionCriteria.none());
  }
}
