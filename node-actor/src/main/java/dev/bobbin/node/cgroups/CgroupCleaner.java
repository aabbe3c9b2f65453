package dev.bobbin.node.cgroups;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Removes the cgroups of containers that ended. A cgroup goes only once no process is left in
 * it: what a container left running there (the container has ended, so nothing of it may run on)
 * is killed, and the removal is tried again until it succeeds or {@code giveUpAfter} has passed.
 * As it stops, with its NodeManager, it tries once more and removes the NodeManager's own cgroups
 * when no container's is left in them. Runs on the blocking dispatcher.
 */
final class CgroupCleaner {
  sealed interface Command {}

  record Remove(String containerId) implements Command {}

  private enum Retry implements Command { INSTANCE }

  static Behavior<Command> create(ContainerCgroups cgroups, Duration retryEvery, Duration giveUpAfter) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new CgroupCleaner(ctx, timers, cgroups, retryEvery, giveUpAfter).behavior()));
  }

  private final ActorContext<Command> ctx;
  private final TimerScheduler<Command> timers;
  private final ContainerCgroups cgroups;
  private final Duration retryEvery;
  private final Duration giveUpAfter;
  /** Containers whose cgroups are still there, and when their removal was first asked for. */
  private final Map<String, Long> pending = new HashMap<>();

  private CgroupCleaner(ActorContext<Command> ctx, TimerScheduler<Command> timers, ContainerCgroups cgroups,
      Duration retryEvery, Duration giveUpAfter) {
    this.ctx = ctx;
    this.timers = timers;
    this.cgroups = cgroups;
    this.retryEvery = retryEvery;
    this.giveUpAfter = giveUpAfter;
  }

  private Behavior<Command> behavior() {
    return Behaviors.receive(Command.class)
        .onMessage(Remove.class, r -> {
          if (!tryRemove(r.containerId())) {
            pending.putIfAbsent(r.containerId(), System.nanoTime());
            if (!timers.isTimerActive(Retry.INSTANCE)) timers.startTimerWithFixedDelay(Retry.INSTANCE, retryEvery);
          }
          return Behaviors.same();
        })
        .onMessageEquals(Retry.INSTANCE, () -> {
          long now = System.nanoTime();
          for (var e : Map.copyOf(pending).entrySet()) {
            if (tryRemove(e.getKey())) {
              pending.remove(e.getKey());
            } else if (now - e.getValue() > giveUpAfter.toNanos()) {
              ctx.getLog().warn("cgroup of ended container left in place containerId={}: processes {} still hold it"
                  + " after {} ms", e.getKey(), cgroups.pids(e.getKey()), giveUpAfter.toMillis());
              pending.remove(e.getKey());
            }
          }
          if (pending.isEmpty()) timers.cancel(Retry.INSTANCE);
          return Behaviors.same();
        })
        .onSignal(PostStop.class, s -> {
          pending.keySet().forEach(this::tryRemove);
          cgroups.removeOwn();
          return Behaviors.same();
        })
        .build();
  }

  private boolean tryRemove(String containerId) {
    Set<Long> left = cgroups.pids(containerId);
    if (!left.isEmpty()) {
      if (!pending.containsKey(containerId)) {
        ctx.getLog().info("killing what ended container {} left running in its cgroup: processes {}", containerId, left);
      }
      left.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    return cgroups.remove(containerId);
  }
}
