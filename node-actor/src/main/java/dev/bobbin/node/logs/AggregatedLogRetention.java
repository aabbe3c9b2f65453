package dev.bobbin.node.logs;

import dev.bobbin.config.LogAggregationSettings;
import dev.bobbin.node.cleanup.Deletions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Deletes aggregated applications' logs past {@code yarn.log-aggregation.retain-seconds}, looking
 * every check interval (YARN's AggregatedLogDeletionService).
 *
 * <p>It runs on every NodeManager that aggregates, not on the RM: the log directory is the
 * NodeManagers' (they write it, and their settings name it), while an RM member may run where it is
 * not mounted and does not know where it is. Several nodes sweeping the same directory is harmless:
 * each deletes only what has been unchanged for the whole retention, and a tree another node
 * deleted first is simply gone. An application still being aggregated has just changed, so it is
 * never taken.
 */
public final class AggregatedLogRetention {
  /** Its only message, sent by its own timer. */
  public enum Command { SWEEP }

  private AggregatedLogRetention() {}

  /** @param settings with a retention: keeping aggregated logs for ever needs no sweeping */
  public static Behavior<Command> create(LogAggregationSettings settings, Clock clock) {
    Duration retain = settings.retain().orElseThrow();
    Path root = settings.remoteAppLogDir();
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(Command.SWEEP, Duration.ZERO, settings.retainCheckInterval());
      return Behaviors.receive(Command.class)
          .onMessageEquals(Command.SWEEP, () -> {
            try {
              for (Path app : AggregatedLogs.unchangedSince(root, clock.instant().minus(retain))) {
                if (Deletions.deleteTree(app)) {
                  ctx.getLog().info("Deleted the aggregated logs {}: unchanged for longer than {} ms", app,
                      retain.toMillis());
                }
              }
            } catch (IOException | RuntimeException e) {
              ctx.getLog().warn("Could not delete aggregated logs past their retention under {}: {}", root,
                  e.toString());
            }
            return Behaviors.same();
          })
          .build();
    }));
  }
}
