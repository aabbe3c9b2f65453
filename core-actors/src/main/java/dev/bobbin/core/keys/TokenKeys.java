package dev.bobbin.core.keys;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.Tokens;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.BackoffSupervisorStrategy;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.RecoveryCompleted;
import org.apache.pekko.persistence.typed.javadsl.CommandHandlerWithReply;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehaviorWithEnforcedReplies;
import org.apache.pekko.persistence.typed.javadsl.ReplyEffect;
import org.apache.pekko.persistence.typed.javadsl.RetentionCriteria;
import org.apache.pekko.persistence.typed.javadsl.SignalHandler;

/**
 * The cluster's token keys, a singleton with its own journal (as YARN keeps its secret managers'
 * keys in the state store): it makes the keys, rolls them on its timer ({@link KeyRing#due}),
 * retires them once every token they signed has expired, and records the epoch of each new
 * scheduler. A member that takes it over after a failure recovers every key from the journal, so
 * tokens issued before the failure still verify. Every change is published to the members.
 */
public final class TokenKeys
    extends EventSourcedBehaviorWithEnforcedReplies<TokenKeys.Command, TokenKeys.Event, KeyRing> {

  /** The topic on which every change of the ring goes to the members. */
  public static final String TOPIC = "token-keys";
  public static final PersistenceId PERSISTENCE_ID = PersistenceId.of("TokenKeys", "cluster");

  public sealed interface Command extends CborSerializable {}

  /** The ring, after any roll that is due. */
  public record Get(ActorRef<KeyRing> replyTo) implements Command {}

  /** A scheduler incarnation starts: its epoch becomes the current one; answers with the ring. */
  public record SchedulerStarted(long epoch, ActorRef<KeyRing> replyTo) implements Command {}

  /** The timer's: makes and retires the keys that are due. */
  public enum Roll implements Command { INSTANCE }

  public sealed interface Event extends CborSerializable {}

  public record KeyMade(MasterKey key) implements Event {}

  public record KeyRetired(int keyId) implements Event {}

  public record SchedulerEpochStarted(long epoch) implements Event {}

  /** The cluster's identity, made with its first keys (or the first roll of a ring that had none). */
  public record ClusterNamed(String clusterId) implements Event {}

  /** A journal write that failed, or any other failure, restarts the keys from the journal. */
  private static final BackoffSupervisorStrategy BACKOFF =
      SupervisorStrategy.restartWithBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 0.2);

  private final ActorContext<Command> ctx;
  private final Map<KeyPurpose, KeySchedule> schedules;
  private final Clock clock;
  private final Supplier<String> secrets;
  private final ActorRef<Topic.Command<KeyRing>> topic;

  private TokenKeys(ActorContext<Command> ctx, Map<KeyPurpose, KeySchedule> schedules, Clock clock,
      Supplier<String> secrets, ActorRef<Topic.Command<KeyRing>> topic) {
    super(PERSISTENCE_ID, BACKOFF);
    this.ctx = ctx;
    this.schedules = schedules;
    this.clock = clock;
    this.secrets = secrets;
    this.topic = topic;
  }

  /** The singleton: rolls every {@code checkInterval}, and restarts after a failure. */
  public static Behavior<Command> create(Map<KeyPurpose, KeySchedule> schedules, Clock clock,
      ActorRef<Topic.Command<KeyRing>> topic, Duration checkInterval) {
    return Behaviors.supervise(create(schedules, clock, TokenKeys::newSecret, topic, checkInterval)).onFailure(BACKOFF);
  }

  /** @param secrets makes the secret of each new key (tests give their own) */
  static Behavior<Command> create(Map<KeyPurpose, KeySchedule> schedules, Clock clock, Supplier<String> secrets,
      ActorRef<Topic.Command<KeyRing>> topic, Duration checkInterval) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(Roll.INSTANCE, checkInterval);
      return new TokenKeys(ctx, schedules, clock, secrets, topic);
    }));
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private static String newSecret() {
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    return Tokens.encodeKey(secret);
  }

  @Override
  public KeyRing emptyState() {
    return KeyRing.EMPTY;
  }

  @Override
  public CommandHandlerWithReply<Command, Event, KeyRing> commandHandler() {
    return newCommandHandlerWithReplyBuilder().forAnyState()
        .onCommand(Get.class, (ring, c) -> rollThenReply(ring, List.of(), c.replyTo()))
        .onCommand(SchedulerStarted.class, (ring, c) -> rollThenReply(ring,
            c.epoch() > ring.schedulerEpoch() ? List.of(new SchedulerEpochStarted(c.epoch())) : List.of(), c.replyTo()))
        .onCommand(Roll.class, (ring, c) -> {
          List<Event> events = due(ring);
          return events.isEmpty() ? Effect().none().thenNoReply()
              : Effect().persist(events).thenRun(this::published).thenNoReply();
        })
        .build();
  }

  /** Answers from a ring that holds every key due by now, so that no member starts without keys. */
  private ReplyEffect<Event, KeyRing> rollThenReply(KeyRing ring, List<Event> first, ActorRef<KeyRing> replyTo) {
    List<Event> events = new ArrayList<>(first);
    events.addAll(due(ring));
    if (events.isEmpty()) return Effect().reply(replyTo, ring);
    return Effect().persist(events).thenRun(this::published).thenReply(replyTo, ns -> ns);
  }

  private List<Event> due(KeyRing ring) {
    KeyRing.Roll roll = ring.due(clock.millis(), schedules, secrets);
    List<Event> events = new ArrayList<>();
    if (ring.clusterId().isEmpty()) {
      String id = UUID.randomUUID().toString();
      ctx.getLog().info("Token keys: this cluster is {}", id);
      events.add(new ClusterNamed(id));
    }
    for (MasterKey k : roll.made()) {
      ctx.getLog().info("Token keys: made {}", k);
      events.add(new KeyMade(k));
    }
    for (int id : roll.retired()) {
      ctx.getLog().info("Token keys: retired key {}: every token it signed has expired", id);
      events.add(new KeyRetired(id));
    }
    return events;
  }

  private void published(KeyRing ring) {
    topic.tell(Topic.publish(ring));
  }

  @Override
  public EventHandler<KeyRing, Event> eventHandler() {
    return newEventHandlerBuilder().forAnyState()
        .onEvent(KeyMade.class, (ring, e) -> ring.withKey(e.key()))
        .onEvent(KeyRetired.class, (ring, e) -> ring.withoutKey(e.keyId()))
        .onEvent(SchedulerEpochStarted.class, (ring, e) -> ring.atEpoch(e.epoch()))
        .onEvent(ClusterNamed.class, (ring, e) -> ring.named(e.clusterId()))
        .build();
  }

  @Override
  public SignalHandler<KeyRing> signalHandler() {
    // A member that took the keys over tells every member at once, and makes what fell due meanwhile.
    return newSignalHandlerBuilder().onSignal(RecoveryCompleted.instance(), ring -> {
      if (!ring.keys().isEmpty()) published(ring);
      ctx.getSelf().tell(Roll.INSTANCE);
    }).build();
  }

  @Override
  public RetentionCriteria retentionCriteria() {
    return RetentionCriteria.snapshotEvery(100, 2);
  }
}
