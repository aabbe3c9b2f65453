package dev.bobbin.node.logs;

import dev.bobbin.config.LogAggregationSettings;
import dev.bobbin.node.cleanup.DeletionService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Copies each ended application's container logs from this node to the cluster's log directory
 * (YARN's per-application log aggregator), and only then hands the node's own copy to the
 * deletions, to go after {@code log-retain}. A copy that fails is logged and tried again every
 * retry interval until it succeeds, the node's copy staying meanwhile. Runs on the blocking
 * dispatcher: copying reads and writes files.
 */
public final class LogAggregator {
  public sealed interface Command {}

  /**
   * The application ended and none of its containers runs here: its logs are complete.
   *
   * @param appLogDirs its directory in each of the node's log directories that holds some of them
   */
  public record Aggregate(String applicationId, String user, List<Path> appLogDirs) implements Command {
    public Aggregate(String applicationId, String user, Path appLogDir) {
      this(applicationId, user, List.of(appLogDir));
    }
  }

  private record Attempt(Aggregate what, int number) implements Command {}

  private LogAggregator() {}

  public static Behavior<Command> create(LogAggregationSettings settings, String nodeId, Duration logRetain,
      ActorRef<DeletionService.Command> deletions) {
    Path root = settings.remoteAppLogDir();
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> Behaviors.receive(Command.class)
        .onMessage(Aggregate.class, a -> {
          ctx.getSelf().tell(new Attempt(a, 1));
          return Behaviors.same();
        })
        .onMessage(Attempt.class, attempt -> {
          Aggregate a = attempt.what();
          List<Path> dirs = a.appLogDirs().stream().filter(d -> Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS)).toList();
          if (dirs.isEmpty()) {
            ctx.getLog().info("No logs of application {} on this node to aggregate", a.applicationId());
            return Behaviors.same();
          }
          try {
            int files = AggregatedLogs.copy(dirs, root, a.user(), a.applicationId(), nodeId);
            ctx.getLog().info("Aggregated {} log files of application {} to {}", files, a.applicationId(),
                AggregatedLogs.nodeDir(root, a.user(), a.applicationId(), nodeId));
            dirs.forEach(d -> deletions.tell(new DeletionService.DeleteAfter(d, logRetain)));
          } catch (IOException | RuntimeException e) {
            ctx.getLog().warn("Could not aggregate the logs of application {} to {} (attempt {}): {}; they stay in {} "
                    + "and the copy is tried again in {} ms", a.applicationId(), root, attempt.number(), e.toString(),
                dirs, settings.retryInterval().toMillis());
            timers.startSingleTimer(a.applicationId(), new Attempt(a, attempt.number() + 1), settings.retryInterval());
          }
          return Behaviors.same();
        })
        .build()));
  }
}
