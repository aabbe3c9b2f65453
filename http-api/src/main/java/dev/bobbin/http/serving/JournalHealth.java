package dev.bobbin.http.serving;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this member reaches its journal, checked every {@code interval}: a check that fails, or
 * has not answered after {@code timeout}, makes the journal unreachable until one answers again.
 * An embedded journal is a file of this process's own and is always reachable.
 */
public final class JournalHealth implements Supplier<JournalHealth.Status> {
  private static final Logger log = LoggerFactory.getLogger(JournalHealth.class);

  /** @param reason why it is unreachable; empty when it is reachable */
  public record Status(boolean reachable, String reason) {
    public static final Status REACHABLE = new Status(true, "");
  }

  private final AtomicReference<Status> current = new AtomicReference<>(Status.REACHABLE);

  private JournalHealth() {}

  /** Starts checking the journal of {@code system} when it is PostgreSQL. */
  public static JournalHealth start(ActorSystem<?> system, JournalProbeSettings settings) {
    JournalHealth health = new JournalHealth();
    if (system.settings().config().getString("bobbin.persistence.journal").equals("postgres")) {
      Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
      system.systemActorOf(Behaviors.<Msg>setup(ctx -> Behaviors.withTimers(timers -> new Prober(ctx, timers,
              settings, new JournalPing(system.settings().config(), settings.timeout()), blocking, health.current))),
          "journal-health", Props.empty());
    }
    return health;
  }

  @Override
  public Status get() {
    return current.get();
  }

  private sealed interface Msg {}

  private enum Tick implements Msg { INSTANCE }

  private record Answered(long check, Optional<String> failure) implements Msg {}

  private record Overdue(long check) implements Msg {}

  private static final class Prober extends AbstractBehavior<Msg> {
    private final TimerScheduler<Msg> timers;
    private final JournalProbeSettings settings;
    private final JournalPing ping;
    private final Executor blocking;
    private final AtomicReference<Status> status;
    private long check;
    private boolean checking;
    private long lostAt;

    Prober(ActorContext<Msg> ctx, TimerScheduler<Msg> timers, JournalProbeSettings settings, JournalPing ping,
        Executor blocking, AtomicReference<Status> status) {
      super(ctx);
      this.timers = timers;
      this.settings = settings;
      this.ping = ping;
      this.blocking = blocking;
      this.status = status;
      timers.startTimerWithFixedDelay(Tick.INSTANCE, settings.interval());
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Tick.class, t -> tick())
          .onMessage(Answered.class, this::answered)
          .onMessage(Overdue.class, this::overdue)
          .onSignal(PostStop.class, s -> {
            // The last check may still hold the connection; closing it there ends that check too.
            CompletableFuture.runAsync(ping::close, blocking);
            return this;
          })
          .build();
    }

    /** One check at a time: one that hangs is reported by its timeout, not repeated on top. */
    private Behavior<Msg> tick() {
      if (checking) return this;
      checking = true;
      long id = ++check;
      getContext().pipeToSelf(CompletableFuture.supplyAsync(ping::check, blocking),
          (failure, e) -> new Answered(id, e != null ? Optional.of(String.valueOf(e.getMessage())) : failure));
      timers.startSingleTimer("overdue", new Overdue(id), settings.timeout());
      return this;
    }

    private Behavior<Msg> answered(Answered a) {
      checking = false;
      timers.cancel("overdue");
      set(a.failure().map(r -> new Status(false, r)).orElse(Status.REACHABLE));
      return this;
    }

    private Behavior<Msg> overdue(Overdue o) {
      if (checking && o.check() == check) {
        set(new Status(false, "the journal's database did not answer a check within " + settings.timeout().toMillis()
            + " ms"));
      }
      return this;
    }

    private void set(Status next) {
      Status before = status.getAndSet(next);
      if (before.reachable() && !next.reachable()) {
        lostAt = System.nanoTime();
        log.warn("Journal unreachable: {}; this member refuses writes until it answers", next.reason());
      } else if (!before.reachable() && next.reachable()) {
        log.info("Journal reachable again after {} ms; this member serves writes",
            Duration.ofNanos(System.nanoTime() - lostAt).toMillis());
      }
    }
  }
}
