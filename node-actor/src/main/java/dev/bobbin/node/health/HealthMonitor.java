package dev.bobbin.node.health;

import dev.bobbin.config.NmHealthSettings;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The NodeManager's health checks, as YARN's NodeHealthCheckerService: runs the health script (if
 * one is configured) and checks the directories, each at its own interval, on the blocking
 * dispatcher, and after every check tells its parent the node's verdict and the directories new
 * containers may use. A check is scheduled once the previous one has finished, so runs never
 * overlap. Until the script has run it counts as healthy, as in YARN.
 */
public final class HealthMonitor extends AbstractBehavior<HealthMonitor.Command> {
  public sealed interface Command {}

  private enum Tick implements Command { SCRIPT, DISKS }

  private record ScriptRan(NodeHealth verdict) implements Command {}

  private record DisksChecked(DisksHealth disks) implements Command {}

  private record CheckFailed(Tick check, Throwable error) implements Command {}

  /** The node's verdict, joining every check, and the latest directory check. */
  public record Status(NodeHealth health, DisksHealth disks) {}

  /**
   * @param firstDisks the check made before the node started, which stands until the next one
   */
  public static Behavior<Command> create(
      NmHealthSettings settings, DiskChecker diskChecker, DisksHealth firstDisks, Clock clock, ActorRef<Status> parent) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        new HealthMonitor(ctx, timers, settings, diskChecker, firstDisks, clock, parent)));
  }

  private final TimerScheduler<Command> timers;
  private final NmHealthSettings settings;
  private final DiskChecker diskChecker;
  private final HealthScriptRunner script;
  private final Clock clock;
  private final ActorRef<Status> parent;
  private final Executor blocking;
  private NodeHealth scriptVerdict;
  private DisksHealth disks;

  private HealthMonitor(
      ActorContext<Command> ctx, TimerScheduler<Command> timers, NmHealthSettings settings, DiskChecker diskChecker,
      DisksHealth firstDisks, Clock clock, ActorRef<Status> parent) {
    super(ctx);
    this.timers = timers;
    this.settings = settings;
    this.diskChecker = diskChecker;
    this.clock = clock;
    this.parent = parent;
    this.blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    this.script = settings.scriptPath()
        .map(p -> new HealthScriptRunner(p, settings.scriptOpts(), settings.scriptTimeout())).orElse(null);
    this.scriptVerdict = NodeHealth.healthy(clock.millis());
    this.disks = firstDisks;
    if (script != null) {
      ctx.getLog().info("Health script {} runs every {} ms (timeout {} ms)", settings.scriptPath().get(),
          settings.scriptInterval().toMillis(), settings.scriptTimeout().toMillis());
      timers.startSingleTimer(Tick.SCRIPT, Duration.ZERO);
    }
    if (settings.diskCheckEnabled()) timers.startSingleTimer(Tick.DISKS, settings.diskCheckInterval());
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessageEquals(Tick.SCRIPT, () -> inBackground(Tick.SCRIPT, this::runScript, ScriptRan::new))
        .onMessageEquals(Tick.DISKS,
            () -> inBackground(Tick.DISKS, () -> diskChecker.check(clock.millis()), DisksChecked::new))
        .onMessage(ScriptRan.class, this::onScriptRan)
        .onMessage(DisksChecked.class, this::onDisksChecked)
        .onMessage(CheckFailed.class, this::onCheckFailed)
        .build();
  }

  private NodeHealth runScript() {
    return ScriptVerdict.judge(settings.scriptPath().get().toString(), script.run(), clock.millis());
  }

  private <T> Behavior<Command> inBackground(Tick check, Supplier<T> run, Function<T, Command> done) {
    getContext().pipeToSelf(CompletableFuture.supplyAsync(run, blocking),
        (result, error) -> error == null ? done.apply(result) : new CheckFailed(check, error));
    return this;
  }

  /** A check that throws says nothing of the node: the verdict stands, and the next check runs on time. */
  private Behavior<Command> onCheckFailed(CheckFailed m) {
    getContext().getLog().warn("Health check {} failed to run: {}", m.check(), m.error().toString());
    timers.startSingleTimer(m.check(), m.check() == Tick.SCRIPT ? settings.scriptInterval() : settings.diskCheckInterval());
    return this;
  }

  private Behavior<Command> onScriptRan(ScriptRan m) {
    if (m.verdict().healthy() != scriptVerdict.healthy() || !m.verdict().report().equals(scriptVerdict.report())) {
      if (m.verdict().healthy()) getContext().getLog().info("Health script passes again");
      else getContext().getLog().warn("Health script reports the node unhealthy: {}", m.verdict().report());
    }
    scriptVerdict = m.verdict();
    report();
    timers.startSingleTimer(Tick.SCRIPT, settings.scriptInterval());
    return this;
  }

  private Behavior<Command> onDisksChecked(DisksChecked m) {
    if (!m.disks().health().report().equals(disks.health().report())) {
      if (m.disks().health().report().isEmpty()) getContext().getLog().info("Every local and log directory is good again");
      else getContext().getLog().warn("Directory check: {}", m.disks().health().report());
    }
    disks = m.disks();
    report();
    timers.startSingleTimer(Tick.DISKS, settings.diskCheckInterval());
    return this;
  }

  private void report() {
    parent.tell(new Status(NodeHealth.of(scriptVerdict, disks.health()), disks));
  }
}
