package dev.bobbin.core.scheduler;

import dev.bobbin.protocol.CborSerializable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;

/**
 * Counts scheduler incarnations. Each incarnation takes the next epoch and puts it in its
 * container ids ({@code container_e<epoch>_...}), so ids stay unique across restarts and
 * failovers, as YARN's RM epoch does.
 */
public final class EpochEntity
    extends EventSourcedBehaviorWithEnforcedReplies<EpochEntity.Next, EpochEntity.Advanced, EpochEntity.State> {

  public record Next(ActorRef<Long> replyTo) implements CborSerializable {}

  public record Advanced(long epoch) implements CborSerializable {}

  public record State(long epoch) implements CborSerializable {}

  private EpochEntity(String partition) {
    super(PersistenceId.of("SchedulerEpoch", partition));
  }

  public static Behavior<Next> create(String partition) {
    return new EpochEntity(partition);
  }

  @Override
  public State emptyState() {
    return new State(0);
  }

  @Override
  public CommandHandlerWithReply<Next, Advanced, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Next.class, (s, c) -> Effect().persist(new Advanced(s.epoch() + 1))
            .thenReply(c.replyTo(), ns -> ns.epoch()))
        .build();
  }

  @Override
  public EventHandler<State, Advanced> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent((s, e) -> new State(e.epoch()));
  }
}
