package dev.bobbin.node.container;

import dev.bobbin.protocol.ExitStatus;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One container's process, from launch to exit: launches it, watches for its exit, and kills its
 * tree on request (SIGTERM, then SIGKILL after the grace period). Reports once when launched and
 * once when finished, then stops. Runs on the blocking dispatcher: launching and signalling fork.
 */
public final class ContainerActor {
  public sealed interface Command {}

  /** @param diagnostics what the container's end reports; the reason's own when not given */
  public record Kill(KillReason reason, String diagnostics) implements Command {
    public Kill(KillReason reason) {
      this(reason, reason.diagnostics());
    }
  }

  private record ProcessExited(int exitCode) implements Command {}

  private enum GraceExpired implements Command { INSTANCE }

  private enum Poll implements Command { INSTANCE }

  /** What the actor tells its parent. */
  public sealed interface Report {
    String containerId();
  }

  /** Its process runs: launched now, or launched by an earlier NodeManager and taken back after a restart. */
  public record Launched(String containerId, long pid) implements Report {}

  public record Finished(String containerId, int exitStatus, String diagnostics, boolean killed) implements Report {}

  private static final int STDERR_TAIL_BYTES = 4096;

  public static Behavior<Command> create(
      LaunchSpec spec, ProcessLauncher launcher, Duration killGrace, ActorRef<Report> reportTo) {
    return Behaviors.setup(
        ctx -> Behaviors.withTimers(timers -> launch(ctx, timers, spec, launcher, killGrace, reportTo)));
  }

  /**
   * Takes back the process of a container an earlier NodeManager on this node launched: reports it
   * launched at once, then runs it as any other, looking every {@code checkInterval} whether it
   * ended (it is no child of this NodeManager, so nothing else tells).
   */
  public static Behavior<Command> reattach(LaunchSpec spec, ContainerProcess process, Duration killGrace,
      Duration checkInterval, ActorRef<Report> reportTo) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ctx.getLog().info("container taken back containerId={} appId={} user={} pid={} resource={} workDir={}",
          spec.containerId(), spec.applicationId(), spec.user(), process.pid(), spec.resource(), spec.workDir());
      timers.startTimerWithFixedDelay(Poll.INSTANCE, checkInterval);
      return watch(ctx, timers, spec, process, killGrace, reportTo);
    }));
  }

  private static Behavior<Command> launch(
      ActorContext<Command> ctx, TimerScheduler<Command> timers, LaunchSpec spec, ProcessLauncher launcher,
      Duration killGrace, ActorRef<Report> reportTo) {
    ContainerProcess process;
    try {
      process = launcher.launch(spec);
    } catch (IOException | RuntimeException e) {
      ctx.getLog().warn("container launch failed containerId={} appId={} error={}",
          spec.containerId(), spec.applicationId(), e.toString());
      String diagnostics = e instanceof ContainerLaunchRefused ? e.getMessage() : "Failed to launch container: " + e.getMessage();
      reportTo.tell(new Finished(spec.containerId(), ExitStatus.INVALID, diagnostics, false));
      return Behaviors.stopped();
    }
    ctx.getLog().info("container launched containerId={} appId={} user={} pid={} resource={} workDir={}",
        spec.containerId(), spec.applicationId(), spec.user(), process.pid(), spec.resource(), spec.workDir());
    return watch(ctx, timers, spec, process, killGrace, reportTo);
  }

  private static Behavior<Command> watch(ActorContext<Command> ctx, TimerScheduler<Command> timers, LaunchSpec spec,
      ContainerProcess process, Duration killGrace, ActorRef<Report> reportTo) {
    reportTo.tell(new Launched(spec.containerId(), process.pid()));
    ctx.pipeToSelf(process.onExit(), (code, err) -> new ProcessExited(err == null ? code : ExitStatus.INVALID));
    return new Running(ctx, timers, spec, process, killGrace, reportTo).running();
  }

  /** The launched phase; {@code running()} and {@code killing(..)} are its two behaviours. */
  private record Running(
      ActorContext<Command> ctx, TimerScheduler<Command> timers, LaunchSpec spec, ContainerProcess process,
      Duration killGrace, ActorRef<Report> reportTo) {

    Behavior<Command> running() {
      return Behaviors.receive(Command.class)
          .onMessage(Kill.class, k -> startKill(k.reason(), k.diagnostics()))
          .onMessage(ProcessExited.class, e -> exitedByItself(e.exitCode()))
          .onMessageEquals(GraceExpired.INSTANCE, () -> Behaviors.same())
          .onMessageEquals(Poll.INSTANCE, this::poll)
          .build();
    }

    private Behavior<Command> startKill(KillReason reason, String diagnostics) {
      ctx.getLog().info("container kill containerId={} appId={} pid={} reason={} exitStatus={}",
          spec.containerId(), spec.applicationId(), process.pid(), reason, reason.exitStatus());
      process.terminate();
      timers.startSingleTimer(GraceExpired.INSTANCE, killGrace);
      return killing(reason, diagnostics, null, false);
    }

    /** Finishes once the root has exited and the rest of the tree is gone or was SIGKILLed. */
    private Behavior<Command> killing(KillReason reason, String diagnostics, Integer rootExitCode, boolean forced) {
      return Behaviors.receive(Command.class)
          .onMessage(Kill.class, k -> Behaviors.same())
          .onMessage(ProcessExited.class, e -> {
            if (forced || !process.treeAlive()) return finishKilled(reason, diagnostics, e.exitCode());
            return killing(reason, diagnostics, e.exitCode(), false);
          })
          .onMessageEquals(GraceExpired.INSTANCE, () -> {
            ctx.getLog().info("container kill grace expired, sending SIGKILL containerId={} pid={}",
                spec.containerId(), process.pid());
            process.forceKill();
            return rootExitCode != null ? finishKilled(reason, diagnostics, rootExitCode)
                : killing(reason, diagnostics, null, true);
          })
          .onMessageEquals(Poll.INSTANCE, this::poll)
          .build();
    }

    private Behavior<Command> poll() {
      process.poll();
      return Behaviors.same();
    }

    private Behavior<Command> finishKilled(KillReason reason, String why, int processExitCode) {
      timers.cancelAll();
      String diagnostics = killedDiagnostics(why, processExitCode);
      ctx.getLog().info("container exit containerId={} appId={} exitStatus={} killed=true reason={}",
          spec.containerId(), spec.applicationId(), reason.exitStatus(), reason);
      reportTo.tell(new Finished(spec.containerId(), reason.exitStatus(), diagnostics, true));
      return Behaviors.stopped();
    }

    private Behavior<Command> exitedByItself(int exitCode) {
      // Reap whatever the container left running in its process group.
      process.forceKill();
      String diagnostics = exitDiagnostics(exitCode, spec.logDir());
      ctx.getLog().info("container exit containerId={} appId={} exitStatus={} killed=false",
          spec.containerId(), spec.applicationId(), exitCode);
      reportTo.tell(new Finished(spec.containerId(), exitCode, diagnostics, false));
      return Behaviors.stopped();
    }
  }

  /** What a container killed on request reports: why, and the exit code of its process when known. */
  public static String killedDiagnostics(String why, int processExitCode) {
    return why
        + (processExitCode == ExitStatus.INVALID ? "" : "\nContainer killed on request. Exit code is " + processExitCode);
  }

  /** What a container that ended by itself reports: nothing on success, else its exit code and stderr's tail. */
  public static String exitDiagnostics(int exitCode, Path logDir) {
    return exitCode == ExitStatus.SUCCESS ? ""
        : "Container exited with a non-zero exit code " + exitCode + ". Last " + STDERR_TAIL_BYTES
            + " bytes of stderr :\n" + tail(logDir.resolve(LaunchSpec.STDERR));
  }

  /** Never through a link: a container run as its user owns its log dir, and must not have the node read for it. */
  static String tail(Path file) {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) return "(stderr unreadable: not a regular file)";
    try (SeekableByteChannel f = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long start = Math.max(0, f.size() - STDERR_TAIL_BYTES);
      ByteBuffer buf = ByteBuffer.allocate((int) (f.size() - start));
      f.position(start);
      while (buf.hasRemaining() && f.read(buf) > 0) {
        // Reads up to the tail's end.
      }
      return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(stderr unreadable: " + e.getMessage() + ")";
    }
  }

  private ContainerActor() {}
}
