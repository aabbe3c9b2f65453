package dev.bobbin.node.cleanup;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Deletes the directories the node no longer needs, each when it is due (YARN's DeletionService):
 * an ended application's local directories after the debug delay, its logs after their retention.
 * Runs on the blocking dispatcher: deleting a tree walks the disk. A deletion that fails is logged
 * and tried again once, a minute later.
 */
public final class DeletionService {
  public sealed interface Command {}

  /** Deletes {@code path} once {@code after} has passed; a second request for it replaces the first. */
  public record DeleteAfter(Path path, Duration after) implements Command {}

  private record DeleteNow(Path path, boolean retry) implements Command {}

  static final Duration RETRY_AFTER = Duration.ofMinutes(1);

  public static Behavior<Command> create() {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> Behaviors.receive(Command.class)
        .onMessage(DeleteAfter.class, d -> {
          if (d.after().isZero() || d.after().isNegative()) ctx.getSelf().tell(new DeleteNow(d.path(), true));
          else timers.startSingleTimer(d.path(), new DeleteNow(d.path(), true), d.after());
          return Behaviors.same();
        })
        .onMessage(DeleteNow.class, d -> {
          try {
            if (Deletions.deleteTree(d.path())) ctx.getLog().info("Deleted {}", d.path());
          } catch (IOException | RuntimeException e) {
            ctx.getLog().warn("Could not delete {}{}: {}", d.path(), d.retry() ? " (trying again in a minute)" : "",
                e.toString());
            if (d.retry()) timers.startSingleTimer(d.path(), new DeleteNow(d.path(), false), RETRY_AFTER);
          }
          return Behaviors.same();
        })
        .build()));
  }

  private DeletionService() {}
}
