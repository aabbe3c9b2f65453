package dev.bobbin.am.shell;

import dev.bobbin.am.AmClient;
import dev.bobbin.am.AmClientSettings;
import dev.bobbin.am.AmEvent;
import dev.bobbin.am.ContainerRequest;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.client.ContainerManagerClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The distributed shell's application master: asks for N containers, runs the shell command in
 * each, waits for all of them, and unregisters SUCCEEDED only if every one exited 0. Reports the
 * outcome to {@code reportTo} once and then idles; its parent decides when to stop it.
 */
public final class ShellAppMaster {
  /** Environment variable telling each container which of the N tasks it runs (1..N). */
  public static final String SHELL_ID_ENV = "DISTRIBUTED_SHELL_ID";

  static final int MAX_RETRIES_PER_TASK = 3;

  public sealed interface Command {}

  private record FromRm(AmEvent event) implements Command {}

  private record LaunchReplied(Container container, int shellId, String failure) implements Command {}

  private record UnregisterReplied(FinalApplicationStatus status, String diagnostics, String failure)
      implements Command {}

  public static Behavior<Command> create(
      ShellAmArgs args, AmClientSettings settings, ContainerManagerClient nm, ActorRef<ShellAmResult> reportTo) {
    return Behaviors.setup(ctx -> new ShellAppMaster(ctx, args, settings, nm, reportTo).running());
  }

  private final ActorContext<Command> ctx;
  private final ShellAmArgs args;
  private final AmClientSettings settings;
  private final ContainerManagerClient nm;
  private final ActorRef<ShellAmResult> reportTo;
  private final ActorRef<AmClient.Command> rm;
  private final ContainerRequest containerRequest;
  private ShellTasks tasks;
  private boolean finishing;

  private ShellAppMaster(
      ActorContext<Command> ctx,
      ShellAmArgs args,
      AmClientSettings settings,
      ContainerManagerClient nm,
      ActorRef<ShellAmResult> reportTo) {
    this.ctx = ctx;
    this.args = args;
    this.settings = settings;
    this.nm = nm;
    this.reportTo = reportTo;
    this.tasks = ShellTasks.of(args.containers(), MAX_RETRIES_PER_TASK);
    this.containerRequest = ContainerRequest.any(args.size(), args.priority());
    ActorRef<AmEvent> events = ctx.messageAdapter(AmEvent.class, FromRm::new);
    this.rm = ctx.spawn(AmClient.create(settings, events), "am-client");
  }

  private Behavior<Command> running() {
    return Behaviors.receive(Command.class)
        .onMessage(FromRm.class, m -> onRmEvent(m.event()))
        .onMessage(LaunchReplied.class, this::onLaunchReplied)
        .onMessage(UnregisterReplied.class, this::onUnregisterReplied)
        .build();
  }

  private Behavior<Command> done() {
    return Behaviors.ignore();
  }

  private Behavior<Command> onRmEvent(AmEvent event) {
    if (event instanceof AmEvent.Registered e) onRegistered(e);
    else if (event instanceof AmEvent.ContainersAllocated e) e.containers().forEach(this::onAllocated);
    else if (event instanceof AmEvent.ContainersCompleted e) e.statuses().forEach(this::onCompleted);
    else if (event instanceof AmEvent.ShutdownRequested e) return report(FinalApplicationStatus.FAILED, e.reason(), false);
    else if (event instanceof AmEvent.Failed e) unregister(FinalApplicationStatus.FAILED, "AM lost the RM: " + e.reason());
    return finishIfDone();
  }

  private void onRegistered(AmEvent.Registered e) {
    if (e.afterResync()) return; // the client re-sent our asks itself
    if (args.keepContainers()) {
      adopt(e.response().containersFromPreviousAttempts());
      return;
    }
    List<Container> earlier = e.response().containersFromPreviousAttempts();
    for (Container c : earlier) {
      ShellTasks.Step step = tasks.assign(c.id());
      tasks = step.tasks();
      if (step.verdict() == ShellTasks.Verdict.LAUNCH) {
        ctx.getLog().info("Task {} continues in container {} from an earlier attempt", step.shellId(), c.id());
      }
    }
    int wanted = tasks.waitingCount();
    ctx.getLog().info(
        "Asking for {} containers of {} at priority {} to run: {}",
        wanted, args.size(), args.priority(), args.shell());
    for (int i = 0; i < wanted; i++) rm.tell(new AmClient.AddContainerRequest(containerRequest));
  }

  /**
   * Takes over the tasks earlier attempts' containers run: each container was asked for in its
   * task's name, so it runs that task on, and its completion, when it comes, ends it. Only the tasks
   * no container runs are asked for. One that names no waiting task belongs to none and is released.
   */
  private void adopt(List<Container> earlier) {
    for (Container c : earlier) {
      ShellTasks.Step step = tasks.assign(c.id(), (int) c.allocationRequestId());
      tasks = step.tasks();
      if (step.verdict() == ShellTasks.Verdict.LAUNCH) {
        ctx.getLog().info("Task {} runs on in container {} of an earlier attempt, on {}", step.shellId(), c.id(),
            c.nodeId());
      } else {
        ctx.getLog().warn("Releasing container {} of an earlier attempt: it runs no task of this AM", c.id());
        rm.tell(new AmClient.ReleaseAssignedContainer(c.id()));
      }
    }
    List<Integer> wanted = tasks.waiting();
    ctx.getLog().info("Adopted {} running tasks; asking for {} containers at priority {} to run: {}",
        tasks.total() - wanted.size(), wanted.size(), args.priority(), args.shell());
    wanted.forEach(shellId -> rm.tell(new AmClient.AddContainerRequest(requestFor(shellId))));
  }

  /** With containers kept, each is asked for in its task's name, so that a later attempt knows which task it runs. */
  private ContainerRequest requestFor(int shellId) {
    return args.keepContainers()
        ? new ContainerRequest(args.size(), List.of(), List.of(), args.priority(), true, shellId)
        : containerRequest;
  }

  private void onAllocated(Container c) {
    ShellTasks.Step step = args.keepContainers() && c.allocationRequestId() > 0
        ? tasks.assign(c.id(), (int) c.allocationRequestId())
        : tasks.assign(c.id());
    tasks = step.tasks();
    if (step.verdict() != ShellTasks.Verdict.LAUNCH) {
      ctx.getLog().info("Releasing container {}: no task is waiting for it", c.id());
      rm.tell(new AmClient.ReleaseAssignedContainer(c.id()));
      return;
    }
    int shellId = step.shellId();
    ctx.getLog().info("Launching task {} in container {} on {}", shellId, c.id(), c.nodeId());
    var launch = new ContainerLaunchContext(
        List.of(args.shell()), Map.of(SHELL_ID_ENV, Integer.toString(shellId)), args.shipped());
    ctx.pipeToSelf(
        nm.startContainer(c, launch),
        (id, error) -> new LaunchReplied(c, shellId, error == null ? null : describe(error)));
  }

  private Behavior<Command> onLaunchReplied(LaunchReplied m) {
    if (m.failure() == null) {
      ctx.getLog().info("Task {} started in container {}", m.shellId(), m.container().id());
      return Behaviors.same();
    }
    ShellTasks.Step step = tasks.startFailed(m.container().id(), m.failure());
    tasks = step.tasks();
    if (step.verdict() == ShellTasks.Verdict.IGNORED) return Behaviors.same();
    ctx.getLog().warn("Task {} could not start in container {}: {}", m.shellId(), m.container().id(), m.failure());
    rm.tell(new AmClient.ReleaseAssignedContainer(m.container().id()));
    if (step.verdict() == ShellTasks.Verdict.RETRY) askAgain(step.shellId());
    return finishIfDone();
  }

  private void onCompleted(ContainerStatus s) {
    ShellTasks.Step step = tasks.completed(s);
    tasks = step.tasks();
    switch (step.verdict()) {
      case SUCCEEDED -> ctx.getLog().info("Task {} in container {} exited 0", step.shellId(), s.containerId());
      case FAILED -> ctx.getLog().warn(
          "Task {} in container {} failed with exit status {}{}",
          step.shellId(), s.containerId(), s.exitStatus(), s.diagnostics().isBlank() ? "" : ": " + s.diagnostics());
      case RETRY -> {
        ctx.getLog().warn(
            "Task {} lost container {} (exit status {}); asking for another",
            step.shellId(), s.containerId(), s.exitStatus());
        askAgain(step.shellId());
      }
      default -> {}
    }
    if (step.verdict() != ShellTasks.Verdict.IGNORED) {
      rm.tell(new AmClient.SetProgress(tasks.progress()));
      ctx.getLog().info(
          "Progress: {} of {} tasks done, {} failed", Math.round(tasks.progress() * tasks.total()),
          tasks.total(), tasks.failures().size());
    }
  }

  private void askAgain(int shellId) {
    ctx.getLog().info("Asking for a new container for task {}", shellId);
    rm.tell(new AmClient.AddContainerRequest(requestFor(shellId)));
  }

  private Behavior<Command> finishIfDone() {
    if (tasks.isDone()) {
      FinalApplicationStatus status =
          tasks.failures().isEmpty() ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED;
      unregister(status, tasks.diagnostics());
    }
    return Behaviors.same();
  }

  private void unregister(FinalApplicationStatus status, String diagnostics) {
    if (finishing) return;
    finishing = true;
    ctx.getLog().info("Finishing with {}: {}", status, diagnostics);
    Duration timeout = settings.giveUpAfter().multipliedBy(2).plus(settings.requestTimeout());
    ctx.askWithStatus(
        Done.class,
        rm,
        timeout,
        replyTo -> new AmClient.Unregister(status, diagnostics, "", replyTo),
        (ok, error) -> new UnregisterReplied(status, diagnostics, error == null ? null : describe(error)));
  }

  private Behavior<Command> onUnregisterReplied(UnregisterReplied m) {
    if (m.failure() != null) {
      ctx.getLog().error("Could not unregister: {}", m.failure());
      return report(m.status(), m.diagnostics() + " (not recorded by the RM: " + m.failure() + ")", false);
    }
    return report(m.status(), m.diagnostics(), true);
  }

  private Behavior<Command> report(FinalApplicationStatus status, String diagnostics, boolean unregistered) {
    reportTo.tell(new ShellAmResult(status, diagnostics, unregistered));
    return done();
  }

  private static String describe(Throwable error) {
    Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }
}
