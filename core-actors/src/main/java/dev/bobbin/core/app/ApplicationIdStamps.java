package dev.bobbin.core.app;

import dev.bobbin.core.base.JournalBackoff;
import dev.bobbin.protocol.CborSerializable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * Hands each RM member incarnation the timestamp its application ids start with
 * ({@code application_<timestamp>_<sequence>}). YARN uses the RM's start time, which is unique
 * because one RM is active at a time; here several members mint ids at once, and two that start in
 * the same millisecond (or with clocks apart) would mint the same ids. Every stamp is later than
 * the last one handed out, so no two incarnations share one.
 */
public final class ApplicationIdStamps extends EventSourcedBehaviorWithEnforcedReplies<
    ApplicationIdStamps.Command, ApplicationIdStamps.Taken, ApplicationIdStamps.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "ApplicationIdStamp");

  /** The one entity: stamps are ordered across the whole cluster. */
  public static final String ENTITY_ID = "cluster";

  public sealed interface Command extends CborSerializable {}

  /** @param now the asking member's clock, the stamp it gets unless that was handed out already */
  public record Take(long now, ActorRef<Long> replyTo) implements Command {}

  public record Taken(long stamp) implements CborSerializable {}

  public record State(long last) implements CborSerializable {}

  private ApplicationIdStamps(String entityId) {
    super(PersistenceId.of(TYPE_KEY.name(), entityId), JournalBackoff.STRATEGY);
  }

  public static Behavior<Command> create(String entityId) {
    return new ApplicationIdStamps(entityId);
  }

  @Override
  public State emptyState() {
    return new State(0);
  }

  @Override
  public CommandHandlerWithReply<Command, Taken, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Take.class, (s, c) -> Effect().persist(new Taken(Math.max(c.now(), s.last() + 1)))
            .thenReply(c.replyTo(), ns -> ns.last()))
        .build();
  }

  @Override
  public EventHandler<State, Taken> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onEvent(Taken.class, (s, e) -> new State(e.stamp())).build();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(100, 2);
  }
}
