package dev.bobbin.persistence;

import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.DeleteEventsCompleted;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.SnapshotCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * A test entity: an append-only list of items, tagged, snapshotting every three events and
 * deleting the events a snapshot covers (so a correct recovery proves the snapshot was read).
 */
public final class Ledger extends EventSourcedBehaviorWithEnforcedReplies<Ledger.Command, Ledger.Event, Ledger.State> {

  public sealed interface Command extends CborSerializable {}

  public record Add(String item, ActorRef<StatusReply<Summary>> replyTo) implements Command {}

  public record Get(ActorRef<Summary> replyTo) implements Command {}

  public record Summary(String id, List<String> items) implements CborSerializable {}

  /** Persistence signals, reported to the test. */
  public record Observed(String what, long sequenceNr) implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  /** One field on purpose: Jackson must still treat it as a properties creator. */
  public record Added(String item) implements Event {}

  public record State(List<String> items) implements CborSerializable {
    static final State EMPTY = new State(List.of());

    State add(String item) {
      List<String> next = new ArrayList<>(items);
      next.add(item);
      return new State(List.copyOf(next));
    }
  }

  public static final int SNAPSHOT_EVERY = 3;

  private final String id;
  private final String tag;
  private final ActorRef<Observed> observer;

  public static Behavior<Command> create(String id, String tag, ActorRef<Observed> observer) {
    return new Ledger(id, tag, observer);
  }

  private Ledger(String id, String tag, ActorRef<Observed> observer) {
    super(PersistenceId.of("Ledger", id));
    this.id = id;
    this.tag = tag;
    this.observer = observer;
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Add.class, (state, cmd) -> cmd.item().isBlank()
            ? Effect().reply(cmd.replyTo(), StatusReply.error("item must not be blank"))
            : Effect().persist(new Added(cmd.item()))
                .thenReply(cmd.replyTo(), s -> StatusReply.success(new Summary(id, s.items()))))
        .onCommand(Get.class, (state, cmd) -> Effect().reply(cmd.replyTo(), new Summary(id, state.items())))
        .build();
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(Added.class, (state, e) -> state.add(e.item()))
        .build();
  }

  @Override
  public Set<String> tagsFor(Event event) {
    return Set.of(tag);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(SNAPSHOT_EVERY, 1).withDeleteEventsOnSnapshot();
  }

  @Override
  public SignalHandler<State> signalHandler() {
    return newSignalHandlerBuilder()
        .onSignal(SnapshotCompleted.class, (state, s) ->
            observer.tell(new Observed("snapshot", s.metadata().sequenceNr())))
        .onSignal(DeleteEventsCompleted.class, (state, s) ->
            observer.tell(new Observed("events-deleted", s.toSequenceNr())))
        .build();
  }
}
