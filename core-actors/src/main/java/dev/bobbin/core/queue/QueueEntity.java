package dev.bobbin.core.queue;

import dev.bobbin.core.base.JournalBackoff;
import com.fasterxml.jackson.annotation.JsonAlias;
import dev.bobbin.config.QueuePath;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.protocol.CborSerializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

/**
 * A queue, the authority on admissions to it: its configuration version, RUNNING or STOPPED, the
 * applications it holds, and whether placement made it a parent. It admits an application under
 * the terms its configuration sets (state, most applications held) before the application is
 * written; a queue that placement made a parent takes no applications, and one that holds
 * applications cannot become a parent.
 */
public final class QueueEntity
    extends EventSourcedBehaviorWithEnforcedReplies<QueueEntity.Command, QueueEntity.Event, QueueEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Queue");

  public enum QueueState { RUNNING, STOPPED }

  public sealed interface Command extends CborSerializable {}

  public record Configure(String configVersion, QueueState state, ActorRef<StatusReply<Report>> replyTo)
      implements Command {}

  /**
   * Admits applications: one write for all of them, those it holds already left out. A queue not yet
   * at {@code configVersion} is brought to it first, with the state {@code terms} set, in the same
   * write. Refused as a whole when the queue is STOPPED or a parent; applications beyond
   * {@code terms.maxApplications()} are refused one by one ({@link Admitted#refused()}).
   * {@link QueueAdmissions} gathers a member's submissions into these.
   */
  public record AddApps(List<String> appIds, String configVersion, AdmissionTerms terms,
      ActorRef<StatusReply<Admitted>> replyTo) implements Command {}

  /** @param refused the applications not admitted, each with why */
  public record Admitted(Map<String, String> refused) implements CborSerializable {
    public static final Admitted ALL = new Admitted(Map.of());
  }

  /**
   * Placement made this queue a parent of the queue it placed an application in. Refused while
   * the queue holds applications: a leaf cannot have children.
   */
  public record ClaimParent(String configVersion, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record RemoveApp(String appId, ActorRef<StatusReply<Done>> replyTo) implements Command {}

  public record Report(String name, String configVersion, QueueState state, List<String> apps)
      implements CborSerializable {}

  public sealed interface Event extends CborSerializable {}

  public record Configured(String configVersion, QueueState state) implements Event {}

  /** One application admitted; journals may hold it, and it is read. */
  public record AppAdded(String appId) implements Event {}

  public record AppsAdded(List<String> appIds) implements Event {}

  public record AppRemoved(String appId) implements Event {}

  public record ParentClaimed() implements Event {}

  /**
   * @param members the applications it holds, as a persistent set: adding one shares the rest
   *     instead of copying it (a copy per event made each submission cost O(applications in the
   *     queue) on the queue's one actor); snapshots that call it {@code apps} read too
   * @param parent placement made it a parent under this configuration version
   */
  public record State(String configVersion, QueueState state,
      @JsonAlias("apps") scala.collection.immutable.Set<String> members, boolean parent)
      implements CborSerializable {
    static final State EMPTY = new State("", QueueState.STOPPED, scala.collection.immutable.HashSet$.MODULE$.empty(),
        false);

    /** A read-only view of {@link #members}. */
    public Set<String> apps() {
      return CollectionConverters.asJava(members);
    }

    State apply(Event e) {
      if (e instanceof Configured c) return new State(c.configVersion(), c.state(), members, false);
      if (e instanceof AppAdded a) return new State(configVersion, state, members.incl(a.appId()), parent);
      if (e instanceof AppsAdded a) {
        scala.collection.immutable.Set<String> next = members;
        for (String id : a.appIds()) next = next.incl(id);
        return new State(configVersion, state, next, parent);
      }
      if (e instanceof AppRemoved r) return new State(configVersion, state, members.excl(r.appId()), parent);
      if (e instanceof ParentClaimed) return new State(configVersion, state, members, true);
      throw new IllegalArgumentException("Unknown event " + e);
    }
  }

  private final String name;

  private QueueEntity(String name) {
    super(PersistenceId.of(TYPE_KEY.name(), name), JournalBackoff.STRATEGY);
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
        .onCommand(ClaimParent.class, this::onClaimParent)
        .onCommand(RemoveApp.class, (s, c) -> !s.apps().contains(c.appId())
            ? Effect().reply(c.replyTo(), StatusReply.ack())
            : Effect().persist(new AppRemoved(c.appId())).thenReply(c.replyTo(), ns -> StatusReply.ack()))
        .build();
  }

  private ReplyEffect<Event, State> onAddApps(State s, AddApps c) {
    boolean reconfigure = !s.configVersion().equals(c.configVersion());
    QueueState state = reconfigure ? (c.terms().stopped() ? QueueState.STOPPED : QueueState.RUNNING) : s.state();
    if (state != QueueState.RUNNING) {
      return Effect().reply(c.replyTo(), StatusReply.error("Queue " + name + " is " + state));
    }
    if (!reconfigure && s.parent()) {
      return Effect().reply(c.replyTo(), StatusReply.error("Queue " + QueuePath.of(name).full()
          + " is a parent queue; applications go to leaf queues"));
    }
    List<String> fresh = c.appIds().stream().distinct().filter(id -> !s.members().contains(id)).toList();
    int room = (int) Math.max(0, Math.min(Integer.MAX_VALUE, (long) c.terms().maxApplications() - s.members().size()));
    List<String> admitted = fresh.subList(0, Math.min(room, fresh.size()));
    Map<String, String> refused = new LinkedHashMap<>();
    for (String id : fresh.subList(admitted.size(), fresh.size())) {
      refused.put(id, "Queue " + QueuePath.of(name).full() + " already has " + s.members().size()
          + " applications, cannot accept submission of application: " + id);
    }
    List<Event> events = new ArrayList<>(2);
    if (reconfigure) events.add(new Configured(c.configVersion(), state));
    if (!admitted.isEmpty()) events.add(new AppsAdded(List.copyOf(admitted)));
    Admitted reply = refused.isEmpty() ? Admitted.ALL : new Admitted(refused);
    if (events.isEmpty()) return Effect().reply(c.replyTo(), StatusReply.success(reply));
    return Effect().persist(events).thenReply(c.replyTo(), ns -> StatusReply.success(reply));
  }

  private ReplyEffect<Event, State> onClaimParent(State s, ClaimParent c) {
    if (!s.members().isEmpty()) {
      return Effect().reply(c.replyTo(), StatusReply.error("Queue " + QueuePath.of(name).full()
          + " is a leaf queue that holds applications; it cannot have child queues"));
    }
    boolean reconfigure = !s.configVersion().equals(c.configVersion());
    if (!reconfigure && s.parent()) return Effect().reply(c.replyTo(), StatusReply.ack());
    List<Event> events = new ArrayList<>(2);
    if (reconfigure) events.add(new Configured(c.configVersion(), QueueState.RUNNING));
    events.add(new ParentClaimed());
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
