package dev.bobbin.node.monitor;

import dev.bobbin.config.ContainerMonitorSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Measures each running container's process tree every interval (one reading of {@code /proc} for
 * all of them), records its usage, and tells the node to kill a container over its memory limit
 * (YARN's ContainersMonitor). A container it reported is no longer watched.
 */
public final class ContainersMonitor {
  public sealed interface Command {}

  /** Watches the tree under {@code pid} from now on, held to {@code limit}. */
  public record Watch(String containerId, long pid, MemoryLimit limit) implements Command {}

  public record Unwatch(String containerId) implements Command {}

  private enum Tick implements Command { INSTANCE }

  /** To the node: kill this container, with this exit status and these diagnostics. */
  public record OverLimit(String containerId, int exitStatus, String diagnostics) {}

  /** Where processes are read from; tests give their own. */
  public record Proc(Supplier<List<ProcStat>> all, LongFunction<String> commandLine, long pageSize,
      long ticksPerSecond) {
    public static Proc linux() {
      return new Proc(ProcFs::all, ProcFs::commandLine, ProcFs.conf("PAGESIZE", 4096), ProcFs.conf("CLK_TCK", 100));
    }
  }

  private record Watched(long pid, MemoryLimit limit, Map<Long, Integer> ages, long cpuTicks, long measuredAtNanos) {}

  public static Behavior<Command> create(ContainerMonitorSettings settings, Proc proc, ContainerUsages usages,
      ActorRef<OverLimit> reportTo) {
    return create(settings, proc, id -> OptionalLong.empty(), usages, reportTo);
  }

  /**
   * @param chargedMemory the memory a container's cgroup charges it, which its usage shows in place
   *     of its processes' resident memory, as YARN reads it when containers have cgroups
   */
  public static Behavior<Command> create(ContainerMonitorSettings settings, Proc proc,
      Function<String, OptionalLong> chargedMemory, ContainerUsages usages, ActorRef<OverLimit> reportTo) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(Tick.INSTANCE, settings.interval());
      return new ContainersMonitor(ctx, proc, chargedMemory, usages, reportTo).behavior();
    }));
  }

  private final ActorContext<Command> ctx;
  private final Proc proc;
  private final Function<String, OptionalLong> chargedMemory;
  private final ContainerUsages usages;
  private final ActorRef<OverLimit> reportTo;
  private final Map<String, Watched> watched = new HashMap<>();

  private ContainersMonitor(ActorContext<Command> ctx, Proc proc, Function<String, OptionalLong> chargedMemory,
      ContainerUsages usages, ActorRef<OverLimit> reportTo) {
    this.ctx = ctx;
    this.proc = proc;
    this.chargedMemory = chargedMemory;
    this.usages = usages;
    this.reportTo = reportTo;
  }

  private Behavior<Command> behavior() {
    return Behaviors.receive(Command.class)
        .onMessage(Watch.class, w -> {
          watched.put(w.containerId(), new Watched(w.pid(), w.limit(), Map.of(), -1, 0));
          return Behaviors.same();
        })
        .onMessage(Unwatch.class, u -> {
          watched.remove(u.containerId());
          usages.remove(u.containerId());
          return Behaviors.same();
        })
        .onMessageEquals(Tick.INSTANCE, () -> {
          if (!watched.isEmpty()) measure();
          return Behaviors.same();
        })
        .build();
  }

  private void measure() {
    List<ProcStat> all = proc.all().get();
    long now = System.nanoTime();
    for (Map.Entry<String, Watched> e : List.copyOf(watched.entrySet())) {
      String containerId = e.getKey();
      Watched w = e.getValue();
      ProcessTree tree = ProcessTree.of(w.pid(), all, w.ages(), proc.pageSize());
      if (tree.isEmpty()) continue; // Ended: the node unwatches it when its exit is reported.
      long ticks = tree.cpuTicks();
      float percent = w.cpuTicks() < 0 ? 0
          : (float) ((ticks - w.cpuTicks()) * 1e11 / proc.ticksPerSecond() / Math.max(1, now - w.measuredAtNanos()));
      long pmem = chargedMemory.apply(containerId).orElse(tree.rssBytes(0));
      usages.put(containerId, new ContainerUsages.Usage(pmem, tree.vmemBytes(0),
          ticks * 1000 / proc.ticksPerSecond(), Math.max(0, percent)));
      var breach = w.limit().check(tree, containerId, t -> t.dump(proc.commandLine(), proc.ticksPerSecond()));
      if (breach.isPresent()) {
        ctx.getLog().warn(breach.get().diagnostics());
        watched.remove(containerId);
        reportTo.tell(new OverLimit(containerId, breach.get().exitStatus(), breach.get().diagnostics()));
      } else {
        watched.put(containerId, new Watched(w.pid(), w.limit(), tree.ages(), ticks, now));
      }
    }
  }
}
