package dev.bobbin.core.scheduler;

import dev.bobbin.protocol.CborSerializable;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * The scheduler's own journal. It counts scheduler incarnations: each takes the next epoch and
 * puts it in its container ids ({@code container_e<epoch>_...}) and tokens, so ids stay unique
 * across failovers and NodeManagers can fence off an older scheduler, as YARN's RM epoch does. It
 * also keeps the starvation clocks, so a starvation timeout that was running keeps running when
 * the scheduler moves to another member.
 */
public final class EpochEntity
    extends EventSourcedBehaviorWithEnforcedReplies<EpochEntity.Command, EpochEntity.Event, EpochEntity.State> {

  public sealed interface Command extends CborSerializable {}

  /** Starts an incarnation: answers with its epoch and the clocks the previous one left. */
  public record Next(ActorRef<Started> replyTo) implements Command {}

  public record SaveClocks(Clocks clocks, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Started(long epoch, Clocks clocks) implements CborSerializable {}

  /**
   * The policy's starvation timing: per application and queue left below its share, the last time
   * it was at its share; per application just served by preemption, when it may next be found
   * starved. Clocks journalled before the recheck times existed read with none.
   */
  public record Clocks(
      Map<String, Long> appsBelowSince, Map<String, Long> queuesBelowSince, Map<String, Long> appsRecheckAfter)
      implements CborSerializable {
    public static final Clocks NONE = new Clocks(Map.of(), Map.of(), Map.of());

    public Clocks {
      appsBelowSince = Map.copyOf(appsBelowSince);
      queuesBelowSince = Map.copyOf(queuesBelowSince);
      appsRecheckAfter = appsRecheckAfter == null ? Map.of() : Map.copyOf(appsRecheckAfter);
    }
  }

  public sealed interface Event extends CborSerializable {}

  public record Advanced(long epoch) implements Event {}

  public record ClocksSaved(Clocks clocks) implements Event {}

  public record State(long epoch, Clocks clocks) implements CborSerializable {}

  /** The scheduler of the one partition there is. */
  public static final String DEFAULT_PARTITION = "default";

  private EpochEntity(String partition) {
    super(persistenceId(partition));
  }

  public static PersistenceId persistenceId(String partition) {
    return PersistenceId.of("SchedulerEpoch", partition);
  }

  public static Behavior<Command> create(String partition) {
    return new EpochEntity(partition);
  }

  @Override
  public State emptyState() {
    return new State(0, Clocks.NONE);
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Next.class, (s, c) -> Effect().persist(new Advanced(s.epoch() + 1))
            .thenReply(c.replyTo(), ns -> new Started(ns.epoch(), ns.clocks())))
        .onCommand(SaveClocks.class, (s, c) -> s.clocks().equals(c.clocks())
            ? Effect().reply(c.replyTo(), StatusReply.ack())
            : Effect().persist(new ClocksSaved(c.clocks())).thenReply(c.replyTo(), ns -> StatusReply.ack()))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    var builder = newEventHandlerBuilder();
    builder.forAnyState()
        .onEvent(Advanced.class, (s, e) -> new State(e.epoch(), s.clocks()))
        .onEvent(ClocksSaved.class, (s, e) -> new State(s.epoch(), e.clocks()));
    return builder.build();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(100, 2);
  }
}
