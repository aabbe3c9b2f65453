package dev.bobbin.core.directory;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.persistence.ReadJournals;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The application list of this member: a read model that folds the tagged application events
 * with the entity's own event handler, so the list and the entity can never disagree on meaning.
 * It lags the entities by the read journal's refresh interval.
 */
public final class AppDirectory {
  public interface Command {}

  public record ListApps(ActorRef<Apps> replyTo) implements Command {}

  public record Apps(List<AppReport> apps) {}

  record Applied(String appId, ApplicationEntity.Event event) implements Command {}

  record StreamFailed(Throwable cause) implements Command {}

  private AppDirectory() {}

  /** @param onEnded called once per application whose final state this member sees */
  public static Behavior<Command> create(Consumer<AppReport> onEnded) {
    return Behaviors.setup(ctx -> {
      Source<EventEnvelope, NotUsed> events =
          ReadJournals.of(ctx.getSystem()).eventsByTag(ApplicationEntity.TAG, Offset.noOffset());
      events.runWith(Sink.foreach(env -> ctx.getSelf().tell(new Applied(
              entityId(env.persistenceId()), (ApplicationEntity.Event) env.event()))), ctx.getSystem())
          .whenComplete((done, err) -> {
            if (err != null) ctx.getSelf().tell(new StreamFailed(err));
          });
      return running(new HashMap<>(), onEnded);
    });
  }

  private static Behavior<Command> running(Map<String, ApplicationEntity.State> apps, Consumer<AppReport> onEnded) {
    return Behaviors.setup(ctx -> Behaviors.receive(Command.class)
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
