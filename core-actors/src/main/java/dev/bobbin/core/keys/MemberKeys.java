package dev.bobbin.core.keys;

import dev.bobbin.core.base.Retrying;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;

/**
 * This member's copy of the cluster's token keys. It follows the keys' singleton ({@link
 * TokenKeys}): every change it publishes, an ask every check interval for one that was missed, and
 * an ask whenever a token names a key newer than the copy holds.
 */
public final class MemberKeys implements SigningKeys, HeldKeys {
  private final ActorSystem<?> system;
  private final ActorRef<TokenKeys.Command> authority;
  private final Map<KeyPurpose, KeySchedule> schedules;
  private final Duration timeout;
  private final AtomicReference<KeySnapshot> snapshot = new AtomicReference<>();
  private final AtomicReference<CompletableFuture<KeySnapshot>> asking = new AtomicReference<>();

  private MemberKeys(ActorSystem<?> system, ActorRef<TokenKeys.Command> authority,
      Map<KeyPurpose, KeySchedule> schedules, Duration timeout) {
    this.system = system;
    this.authority = authority;
    this.schedules = schedules;
    this.timeout = timeout;
  }

  /** The name of the keys' cluster singleton. */
  public static final String SINGLETON = "token-keys";

  /** Starts the keys' singleton (on whichever member runs it) and this member's copy. */
  public static MemberKeys start(ActorSystem<?> system, Map<KeyPurpose, KeySchedule> schedules, Clock clock,
      Duration timeout) {
    Duration check = KeySchedule.checkInterval(schedules);
    ActorRef<Topic.Command<KeyRing>> topic =
        system.systemActorOf(Topic.create(KeyRing.class, TokenKeys.TOPIC), "token-keys-topic", Props.empty());
    ActorRef<TokenKeys.Command> authority = ClusterSingleton.get(system)
        .init(SingletonActor.of(TokenKeys.create(schedules, clock, topic, check), SINGLETON));
    MemberKeys keys = new MemberKeys(system, authority, schedules, timeout);
    system.systemActorOf(keys.follower(topic, check), "token-keys-follower", Props.empty());
    return keys;
  }

  @Override
  public CompletionStage<KeySnapshot> current() {
    KeySnapshot s = snapshot.get();
    return s != null ? CompletableFuture.completedFuture(s) : refresh();
  }

  @Override
  public KeySnapshot held() {
    return snapshot.get();
  }

  /** Asks the keys' singleton for the ring; one ask at a time, however many callers want it. */
  @Override
  public CompletionStage<KeySnapshot> refresh() {
    while (true) {
      CompletableFuture<KeySnapshot> running = asking.get();
      if (running != null) return running;
      CompletableFuture<KeySnapshot> mine = new CompletableFuture<>();
      if (!asking.compareAndSet(null, mine)) continue;
      Retrying.<KeyRing>ask(t -> AskPattern.ask(authority, TokenKeys.Get::new, t, system.scheduler()), timeout)
          .whenComplete((ring, error) -> {
            asking.set(null);
            if (error != null) mine.completeExceptionally(error);
            else mine.complete(heard(ring));
          });
      return mine;
    }
  }

  @Override
  public CompletionStage<Done> schedulerStarted(long epoch) {
    return Retrying.<KeyRing>ask(t -> AskPattern.ask(authority, r -> new TokenKeys.SchedulerStarted(epoch, r), t,
            system.scheduler()), timeout)
        .thenApply(ring -> {
          heard(ring);
          return Done.getInstance();
        });
  }

  @Override
  public SigningKey signing(KeyPurpose purpose, long nowMs) {
    KeySnapshot s = snapshot.get();
    if (s == null) throw new IllegalStateException("No token keys yet: sign only after schedulerStarted");
    return s.signing(purpose, nowMs);
  }

  /** Keeps {@code ring} unless this member already holds a newer one; the copy held after. */
  KeySnapshot heard(KeyRing ring) {
    return snapshot.updateAndGet(s -> s != null && s.ring.version() >= ring.version() ? s
        : new KeySnapshot(ring, schedules));
  }

  private sealed interface FollowerMessage {}

  private record Published(KeyRing ring) implements FollowerMessage {}

  private enum Check implements FollowerMessage { INSTANCE }

  private Behavior<FollowerMessage> follower(ActorRef<Topic.Command<KeyRing>> topic, Duration check) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      topic.tell(Topic.subscribe(ctx.messageAdapter(KeyRing.class, Published::new)));
      timers.startTimerWithFixedDelay(Check.INSTANCE, check);
      ctx.getSelf().tell(Check.INSTANCE);
      return Behaviors.receive(FollowerMessage.class)
          .onMessage(Published.class, m -> {
            heard(m.ring());
            return Behaviors.same();
          })
          .onMessageEquals(Check.INSTANCE, () -> {
            refresh();
            return Behaviors.same();
          })
          .build();
    }));
  }
}
