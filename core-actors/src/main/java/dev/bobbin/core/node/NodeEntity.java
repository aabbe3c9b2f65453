package dev.bobbin.core.node;

import dev.bobbin.core.base.JournalBackoff;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.pattern.StatusReply;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;

/**
 * A NodeManager's registration and state. Heartbeats are not journalled: the scheduler keeps the
 * live view, and a registration that changes nothing persists nothing. A registration makes the node
 * RUNNING, except that an UNHEALTHY node stays UNHEALTHY: its health is its heartbeats' to change.
 */
public final class NodeEntity
    extends EventSourcedBehaviorWithEnforcedReplies<NodeEntity.Command, NodeEntity.Event, NodeEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Node");

  public record Registration(String nodeId, String host, String httpAddress, String rack, Resource capability)
      implements CborSerializable {}

  public sealed interface Command extends CborSerializable {}

  public record Register(Registration registration, ActorRef<StatusReply<Report>> replyTo) implements Command {}

  /** @param until a DECOMMISSIONING node's graceful timeout (epoch ms); 0 for any other state */
  public record MarkState(NodeState state, String reason, long until, ActorRef<StatusReply<Report>> replyTo)
      implements Command {
    public MarkState(NodeState state, String reason, ActorRef<StatusReply<Report>> replyTo) {
      this(state, reason, 0, replyTo);
    }
  }

  /** The node is forgotten (a dead node the host lists no longer track): it leaves the node list. */
  public record Forget(ActorRef<StatusReply<Report>> replyTo) implements Command {}

  public record Report(Registration registration, NodeState state, long registeredTime, String reason)
      implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record Registered(Registration registration, long time) implements Event {}

  /** Forgotten: as if it had never registered. */
  public record Forgotten() implements Event {}

  /**
   * @param until a DECOMMISSIONING node's graceful timeout (epoch ms); 0 otherwise
   * @param time when the RM changed the state (epoch ms); 0 in a change journalled without it
   */
  public record StateChanged(NodeState state, String reason, long until, long time) implements Event {
    public StateChanged(NodeState state, String reason, long until) {
      this(state, reason, until, 0);
    }

    public StateChanged(NodeState state, String reason) {
      this(state, reason, 0, 0);
    }
  }

  /**
   * @param until a DECOMMISSIONING node's graceful timeout (epoch ms); 0 otherwise
   * @param stateTime since when the node is in its state (epoch ms): its registration, or the change
   *     that put it there; 0 when journalled without it
   */
  public record State(Registration registration, NodeState state, long registeredTime, String reason, long until,
      long stateTime) implements CborSerializable {
    public static final State EMPTY = new State(null, NodeState.NEW, 0, "");

    public State(Registration registration, NodeState state, long registeredTime, String reason) {
      this(registration, state, registeredTime, reason, 0, 0);
    }

    public State(Registration registration, NodeState state, long registeredTime, String reason, long until) {
      this(registration, state, registeredTime, reason, until, 0);
    }

    public State apply(Event e) {
      if (e instanceof Registered r) {
        // A registration says nothing of health, and does not end a graceful decommission.
        return state == NodeState.UNHEALTHY || state == NodeState.DECOMMISSIONING
            ? new State(r.registration(), state, r.time(), reason, until, stateTime)
            : new State(r.registration(), NodeState.RUNNING, r.time(), "", 0, r.time());
      }
      if (e instanceof Forgotten) return EMPTY;
      if (e instanceof StateChanged c) {
        return new State(registration, c.state(), registeredTime, c.reason(), c.until(), c.time());
      }
      throw new IllegalArgumentException("Unknown event " + e);
    }

    Report report() {
      return new Report(registration, state, registeredTime, reason);
    }
  }

  private final String nodeId;
  private final Clock clock;

  private NodeEntity(String nodeId, Clock clock) {
    super(PersistenceId.of(TYPE_KEY.name(), nodeId), JournalBackoff.STRATEGY);
    this.nodeId = nodeId;
    this.clock = clock;
  }

  public static Behavior<Command> create(String nodeId, Clock clock) {
    return new NodeEntity(nodeId, clock);
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Register.class, this::onRegister)
        .onCommand(MarkState.class, this::onMarkState)
        .onCommand(Forget.class, (s, c) -> s.registration() == null
            ? Effect().reply(c.replyTo(), StatusReply.success(s.report()))
            : Effect().persist(new Forgotten()).thenReply(c.replyTo(), ns -> StatusReply.success(ns.report())))
        .build();
  }

  private ReplyEffect<Event, State> onRegister(State s, Register c) {
    if (!c.registration().nodeId().equals(nodeId)) {
      return Effect().reply(c.replyTo(), StatusReply.error("Registration is for another node"));
    }
    if (c.registration().equals(s.registration())
        && (s.state() == NodeState.RUNNING || s.state() == NodeState.UNHEALTHY
            || s.state() == NodeState.DECOMMISSIONING)) {
      return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    }
    return Effect().persist(new Registered(c.registration(), clock.millis()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  private ReplyEffect<Event, State> onMarkState(State s, MarkState c) {
    if (s.registration() == null) {
      return Effect().reply(c.replyTo(), StatusReply.error("nodeId, " + nodeId + ", is not found"));
    }
    if (s.state() == c.state() && s.until() == c.until()) {
      return Effect().reply(c.replyTo(), StatusReply.success(s.report()));
    }
    return Effect().persist(new StateChanged(c.state(), c.reason(), c.until(), clock.millis()))
        .thenReply(c.replyTo(), ns -> StatusReply.success(ns.report()));
  }

  @Override
  public EventHandler<State, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState().onAnyEvent(State::apply);
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(100, 2);
  }
}
