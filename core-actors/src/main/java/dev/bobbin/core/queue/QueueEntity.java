package dev.bobbin.core.queue;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.pekko.Done;
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
import scala.jdk.javaapi.CollectionConverters;

/** A queue: its configuration version, RUNNING or STOPPED, and the applications it holds. */
public final class QueueEntity
    extends EventSourcedBehaviorWithEnforcedReplies<QueueEntity.Command, QueueEntity.Event, QueueEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Queue");

  public enum QueueState { RUNNING, STOPPED }

  public sealed interface Command extends CborSerializable {}

  public record Configure(String configVersion, QueueState state, ActorRef<StatusReply<Report>> replyTo)
      implements Command {}

  /**
   * Admits applications: one write for all of them, those it holds already left out. A queue not yet
   * at {@code configVersion} is brought to it first, RUNNING (the RM runs every queue its
   * configuration names), in the same write. The reply is an acknowledgement, not the queue's
   * application list. {@link QueueAdmissions} gathers a member's submissions into these.
   */
  public record AddApps(List<String> appIds, String configVersion, ActorRef<StatusReply<Done>> replyTo)
      implements Command {}

  public record RemoveApp(String appId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Get(ActorRef<StatusReply<Report>> replyTo) implements Command {}

  public record Report(String name, String configVersion, QueueState state, List<String> apps)
      implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record Configured(String configVersion, QueueState state) implements Event {}

  /** Written before admissions were batched; still read. */
  public record AppAdded(String appId) implements Event {}

  public record AppsAdded(List<String> appIds) implements Event {}

  public record AppRemoved(String appId) implements Event {}

  /**
   * @param members the applications it holds, as a persistent set: adding one shares the rest
   *     instead of copying it (a copy per event made each submission cost O(applications in the
   *     queue) on the queue's one actor); snapshots written before it was named so still read
   */
  public record State(String configVersion, QueueState state,
      @JsonAlias("apps") scala.collection.immutable.Set<String> members) implements CborSerializable {
    static final State EMPTY = new State("", QueueState.STOPPED, scala.collection.immutable.HashSet$.MODULE$.empty());

    /** A read-only view of {@link #members}. */
    public Set<String> apps() {
      return CollectionConverters.asJava(members);
    }

    State apply(Event e) {
      if (e instanceof Configured c) return new State(c.configVersion(), c.state(), members);
      if (e instanceof AppAdded a) return new State(configVersion, state, members.incl(a.appId()));
      if (e instanceof AppsAdded a) {
        scala.collection.immutable.Set<String> next = members;
        for (String id : a.appIds()) next = next.incl(id);
        return new State(configVersion, state, next);
      }
      if (e instanceof AppRemoved r) return new State(configVersion, state, members.excl(r.appId()));
      throw new IllegalArgumentException("Unknown event " + e);
    }
  }

  private final String name;

  private QueueEntity(String name) {
    super(PersistenceId.of(TYPE_KEY.name(), name));
    this.name = name;
  }

  public static Behavior<Command> create(String name) {
    return new QueueEntity(name);
  }

  @Override
  public State emptyState() {
    return State.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, State> commandHandler() {
    return newCommandHandlerWithReplyBuilder()
        .forAnyState()
        .onCommand(Configure.class, (s, c) -> s.configVersion().equals(c.configVersion()) && s.state() == c.state()
            ? Effect().reply(c.replyTo(), StatusReply.success(report(s)))
            : Effect().persist(new Configured(c.configVersion(), c.state()))
                .thenReply(c.replyTo(), ns -> StatusReply.success(report(ns))))
        .onCommand(AddApps.class, this::onAddApps)
        .onCommand(RemoveApp.class, (s, c) -> !s.apps().contains(c.appId())
            ? Effect().reply(c.replyTo(), StatusReply.ack())
            : Effect().persist(new AppRemoved(c.appId())).thenReply(c.replyTo(), ns -> StatusReply.ack()))
        .onCommand(Get.class, (s, c) -> Effect().reply(c.replyTo(), StatusReply.success(report(s))))
        .build();
  }

  private ReplyEffect<Event, State> onAddApps(State s, AddApps c) {
    boolean reconfigure = !s.configVersion().equals(c.configVersion());
    QueueState state = reconfigure ? QueueState.RUNNING : s.state();
    if (state != QueueState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error("Queue " + name + " is " + state));
    }
    List<Event> events = new ArrayList<>(2);
    if (reconfigure) events.add(new Configured(c.configVersion(), QueueState.RUNNING));
    List<String> added = c.appIds().stream().distinct().filter(id -> !s.members().contains(id)).toList();
    if (!added.isEmpty()) events.add(new AppsAdded(added));
    if (events.isEmpty()) return Effect().reply(c.replyTo(), StatusReply.ack());
    return Effect().persist(events).thenReply(c.replyTo(), ns -> StatusReply.ack());
  }

  private Report report(State s) {
    return new Report(name, s.configVersion(), s.state(), List.copyOf(s.apps()));
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
