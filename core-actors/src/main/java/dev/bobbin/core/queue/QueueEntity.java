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
 * applications it holds and whose they are, and whether placement made it a parent. It admits an
 * application under the terms its configuration sets (state, most applications held, in all and of
 * one user) before the application is written; a queue that placement made a parent takes no
 * applications, and one that holds applications cannot become a parent.
 */
public final class QueueEntity
    extends EventSourcedBehaviorWithEnforcedReplies<QueueEntity.Command, QueueEntity.Event, QueueEntity.State> {

  public static final EntityTypeKey<Command> TYPE_KEY = EntityTypeKey.create(Command.class, "Queue");

  /**
   * The entity that counts every application in the cluster, for a scheduler-wide maximum (the
   * capacity policy's {@code maximum-applications}). No leaf has this name: leaves are named by
   * their path below root.
   */
  public static final String CLUSTER = "root";

  public enum QueueState { RUNNING, STOPPED }

  public sealed interface Command extends CborSerializable {}

  public record Configure(String configVersion, QueueState state, ActorRef<StatusReply<Report>> replyTo)
      implements Command {}

  /**
   * Admits applications: one write for all of them, those it holds already left out. A queue not yet
   * at {@code configVersion} is brought to it first, with the state {@code terms} set, in the same
   * write. Refused as a whole when the queue is STOPPED or a parent; applications beyond
   * {@code terms.maxApplications()}, or beyond {@code terms.maxApplicationsPerUser()} of their user,
   * are refused one by one ({@link Admitted#refused()}). {@link QueueAdmissions} gathers a member's
   * submissions into these.
   *
   * @param users the user of each application; one without a user counts for no user
   */
  public record AddApps(List<String> appIds, Map<String, String> users, String configVersion, AdmissionTerms terms,
      ActorRef<StatusReply<Admitted>> replyTo) implements Command {
    public AddApps {
      users = Map.copyOf(users);
    }

    /** Applications of no known user. */
    public AddApps(List<String> appIds, String configVersion, AdmissionTerms terms,
        ActorRef<StatusReply<Admitted>> replyTo) {
      this(appIds, Map.of(), configVersion, terms, replyTo);
    }
  }

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

  /** @param users the user of each application, where known; journals may hold none */
  public record AppsAdded(List<String> appIds, Map<String, String> users) implements Event {
    public AppsAdded {
      users = users == null ? Map.of() : Map.copyOf(users);
    }

    public AppsAdded(List<String> appIds) {
      this(appIds, Map.of());
    }
  }

  public record AppRemoved(String appId) implements Event {}

  public record ParentClaimed() implements Event {}

  /**
   * @param members the applications it holds, as a persistent set: adding one shares the rest
   *     instead of copying it (a copy per event made each submission cost O(applications in the
   *     queue) on the queue's one actor); snapshots that call it {@code apps} read too
   * @param parent placement made it a parent under this configuration version
   * @param owners the user of each application it holds, where known (snapshots may hold none)
   * @param userApps how many applications it holds of each user in {@code owners}
   */
  public record State(String configVersion, QueueState state,
      @JsonAlias("apps") scala.collection.immutable.Set<String> members, boolean parent,
      scala.collection.immutable.Map<String, String> owners, scala.collection.immutable.Map<String, Integer> userApps)
      implements CborSerializable {
    static final State EMPTY = new State("", QueueState.STOPPED, scala.collection.immutable.HashSet$.MODULE$.empty(),
        false, null, null);

    public State {
      if (owners == null) owners = scala.collection.immutable.HashMap$.MODULE$.empty();
      if (userApps == null) userApps = scala.collection.immutable.HashMap$.MODULE$.empty();
    }

    /** A read-only view of {@link #members}. */
    public Set<String> apps() {
      return CollectionConverters.asJava(members);
    }

    /** How many applications of {@code user} it holds. */
    public int appsOf(String user) {
      return userApps.contains(user) ? userApps.apply(user) : 0;
    }

    State apply(Event e) {
      if (e instanceof Configured c) return new State(c.configVersion(), c.state(), members, false, owners, userApps);
      if (e instanceof AppAdded a) {
        return new State(configVersion, state, members.incl(a.appId()), parent, owners, userApps);
      }
      if (e instanceof AppsAdded a) {
        scala.collection.immutable.Set<String> next = members;
        var nextOwners = owners;
        var nextCounts = userApps;
        for (String id : a.appIds()) {
          String user = a.users().get(id);
          if (user != null && !members.contains(id)) {
            nextOwners = nextOwners.updated(id, user);
            nextCounts = nextCounts.updated(user, (nextCounts.contains(user) ? nextCounts.apply(user) : 0) + 1);
          }
          next = next.incl(id);
        }
        return new State(configVersion, state, next, parent, nextOwners, nextCounts);
      }
      if (e instanceof AppRemoved r) {
        var nextCounts = userApps;
        if (owners.contains(r.appId())) {
          String user = owners.apply(r.appId());
          int left = appsOf(user) - 1;
          nextCounts = left > 0 ? nextCounts.updated(user, left) : nextCounts.removed(user);
        }
        return new State(configVersion, state, members.excl(r.appId()), parent, owners.removed(r.appId()), nextCounts);
      }
      if (e instanceof ParentClaimed) return new State(configVersion, state, members, true, owners, userApps);
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
    List<String> admitted = new ArrayList<>();
    Map<String, String> users = new LinkedHashMap<>();
    Map<String, Integer> perUser = new LinkedHashMap<>();
    Map<String, String> refused = new LinkedHashMap<>();
    String queue = QueuePath.of(name).full();
    for (String id : fresh) {
      String user = c.users().get(id);
      int ofUser = user == null ? 0 : s.appsOf(user) + perUser.getOrDefault(user, 0);
      if (admitted.size() >= room) {
        refused.put(id, name.equals(CLUSTER)
            ? "Maximum system application limit reached, cannot accept submission of application: " + id
            : "Queue " + queue + " already has " + s.members().size()
                + " applications, cannot accept submission of application: " + id);
      } else if (user != null && ofUser >= c.terms().maxApplicationsPerUser()) {
        refused.put(id, "Queue " + queue + " already has " + ofUser + " applications from user " + user
            + " cannot accept submission of application: " + id);
      } else {
        admitted.add(id);
        if (user != null) {
          users.put(id, user);
          perUser.merge(user, 1, Integer::sum);
        }
      }
    }
    List<Event> events = new ArrayList<>(2);
    if (reconfigure) events.add(new Configured(c.configVersion(), state));
    if (!admitted.isEmpty()) events.add(new AppsAdded(List.copyOf(admitted), users));
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
