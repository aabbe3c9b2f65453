package dev.bobbin.core.directory;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.persistence.ReadJournals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The application list of this member: a read model that folds the tagged application events
 * with the entity's own event handler, so the list and the entity can never disagree on meaning.
 * It lags the entities by the read journal's refresh interval, and starts reading once the
 * scheduler has recovered.
 */
public final class AppDirectory {
  public interface Command {}

  public record ListApps(ActorRef<Apps> replyTo) implements Command {}

  public record Apps(List<AppReport> apps) {}

  record Applied(String appId, ApplicationEntity.Event event) implements Command {}

  record StreamFailed(Throwable cause) implements Command {}

  private record StartReading() implements Command {}

  /** Long enough for a scheduler to read a large journal; the directory reads anyway after it. */
  private static final Duration WAIT_FOR_SCHEDULER = Duration.ofMinutes(2);

  private AppDirectory() {}

  /**
   * The directory of a member, reading the application tag of its read journal once the
   * scheduler has recovered.
   *
   * @param onEnded called once per application whose final state this member sees
   * @param scheduler the scheduler (its singleton proxy)
   */
  public static Behavior<Command> create(Consumer<AppReport> onEnded, ActorRef<SchedulerProtocol.Command> scheduler) {
    return create(onEnded,
        system -> AskPattern.ask(scheduler, SchedulerProtocol.WhenRecovered::new, WAIT_FOR_SCHEDULER, system.scheduler()),
        system -> ReadJournals.of(system).eventsByTag(ApplicationEntity.TAG, Offset.noOffset()));
  }

  /**
   * @param ready when to start reading. A restarted member's scheduler reads the same events to
   *     recover, and it gates submissions while the directory's catch-up gates nothing, so the
   *     directory waits for it instead of taking CPU from it (2-3 s of a 10 s recovery on 2 cores).
   *     It starts reading whether {@code ready} completes or fails.
   * @param events the tagged application events from the start
   */
  static Behavior<Command> create(Consumer<AppReport> onEnded,
      Function<ActorSystem<?>, CompletionStage<?>> ready,
      Function<ActorSystem<?>, Source<EventEnvelope, NotUsed>> events) {
    return Behaviors.setup(ctx -> {
      ctx.pipeToSelf(ready.apply(ctx.getSystem()), (ok, err) -> new StartReading());
      return running(new HashMap<>(), onEnded, events);
    });
  }

  private static void read(ActorContext<Command> ctx, Function<ActorSystem<?>, Source<EventEnvelope, NotUsed>> events) {
    events.apply(ctx.getSystem())
        .runWith(Sink.foreach(env -> ctx.getSelf().tell(new Applied(
            entityId(env.persistenceId()), (ApplicationEntity.Event) env.event()))), ctx.getSystem())
        .whenComplete((done, err) -> {
          if (err != null) ctx.getSelf().tell(new StreamFailed(err));
        });
  }

  private static Behavior<Command> running(Map<String, ApplicationEntity.State> apps, Consumer<AppReport> onEnded,
      Function<ActorSystem<?>, Source<EventEnvelope, NotUsed>> events) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
        .onMessage(StartReading.class, m -> {
          read(ctx, events);
          return Behaviors.same();
        })
        .onMessage(Applied.class, a -> {
          ApplicationEntity.State before = apps.getOrDefault(a.appId(), ApplicationEntity.State.empty(a.appId()));
          ApplicationEntity.State after = before.apply(a.event());
          apps.put(a.appId(), after);
          if (after.state().isFinal() && !before.state().isFinal()) onEnded.accept(after.report());
          return Behaviors.same();
        })
        .onMessage(ListApps.class, l -> {
          List<AppReport> out = new ArrayList<>(apps.size());
          for (ApplicationEntity.State s : apps.values()) if (s.exists()) out.add(s.report());
          out.sort((x, y) -> x.id().compareTo(y.id()));
          l.replyTo().tell(new Apps(out));
          return Behaviors.same();
        })
        .onMessage(StreamFailed.class, f -> {
          // The member is going down and the stream with it: nothing to rebuild, nothing to report.
          if (CoordinatedShutdown.get(ctx.getSystem()).getShutdownReason().isPresent()) return Behaviors.stopped();
          // Restarting rebuilds the list from the start of the tag.
          throw new IllegalStateException("Application event stream failed", f.cause());
        })
        .build());
  }

  private static String entityId(String persistenceId) {
    int bar = persistenceId.indexOf('|');
    return bar < 0 ? persistenceId : persistenceId.substring(bar + 1);
  }
}
