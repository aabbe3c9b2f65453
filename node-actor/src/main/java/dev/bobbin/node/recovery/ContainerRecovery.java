package dev.bobbin.node.recovery;

import dev.bobbin.node.container.ContainerActor;
import dev.bobbin.node.container.ProcessFiles;
import dev.bobbin.node.container.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What a restarted NodeManager makes of a container its state store names (YARN's container
 * recovery and RecoveredContainerLaunch): its process still runs, and is watched again; or it
 * ended while no agent watched it, with the exit code its launch script wrote; or its end was
 * recorded already, and is reported until the RM acknowledges it. A process is taken for the
 * container's only when it is the very process recorded at launch (pid, start time and boot), so
 * that a pid the system has since given to another process is never mistaken for it.
 */
public final class ContainerRecovery {
  private ContainerRecovery() {}

  public sealed interface Outcome {
    StoredContainer stored();
  }

  /** Its process runs: watch it again, and go on killing it if a kill had been asked for. */
  public record Running(StoredContainer stored, ProcessIdentity process) implements Outcome {}

  /** It ended while no NodeManager watched it: report this end. */
  public record Ended(StoredContainer stored, int exitStatus, String diagnostics, boolean killed) implements Outcome {}

  /** Its end had been recorded: report it again until the RM acknowledges it. */
  public record Reported(StoredContainer stored) implements Outcome {}

  /** What the recovery reads of the host; tests give their own. */
  public interface Host {
    OptionalInt exitCode(Path workDir, String containerId);

    OptionalLong pidFromFile(Path workDir, String containerId);

    boolean running(ProcessIdentity process);

    ProcessIdentity identify(long pid);

    Optional<Path> workingDirectory(long pid);

    static Host linux() {
      return new Host() {
        @Override
        public OptionalInt exitCode(Path workDir, String containerId) {
          return ProcessFiles.exitCode(workDir, containerId);
        }

        @Override
        public OptionalLong pidFromFile(Path workDir, String containerId) {
          return ProcessFiles.pid(workDir, containerId);
        }

        @Override
        public boolean running(ProcessIdentity process) {
          return process.isRunning();
        }

        @Override
        public ProcessIdentity identify(long pid) {
          return ProcessIdentity.of(pid);
        }

        @Override
        public Optional<Path> workingDirectory(long pid) {
          return ProcessIdentity.workingDirectory(pid);
        }
      };
    }
  }

  public static Outcome of(StoredContainer c, Host host) {
    if (c.state().isFinal()) return new Reported(c);
    Path workDir = Path.of(c.workDir());
    OptionalInt exitCode = host.exitCode(workDir, c.containerId());
    if (exitCode.isPresent()) return ended(c, exitCode.getAsInt());
    if (c.hasProcess()) {
      if (host.running(c.process())) return new Running(c, c.process());
      return lost(c, "its process " + c.pid() + " ended while no NodeManager watched it, and left no exit code");
    }
    // Launched but not yet recorded as launched when the NodeManager stopped: the script's own pid
    // file names the process, which is the container's if it runs in the container's work directory.
    OptionalLong pid = host.pidFromFile(workDir, c.containerId());
    if (pid.isEmpty()) return lost(c, "the NodeManager stopped before the container's process started");
    ProcessIdentity p = host.identify(pid.getAsLong());
    if (host.running(p) && host.workingDirectory(p.pid()).filter(d -> sameDir(d, workDir)).isPresent()) {
      return new Running(c, p);
    }
    return lost(c, "its process " + p.pid() + " ended while no NodeManager watched it, and left no exit code");
  }

  private static Outcome ended(StoredContainer c, int exitCode) {
    if (c.killReason() != null) {
      return new Ended(c, c.killReason().exitStatus(), ContainerActor.killedDiagnostics(c.killDiagnostics(), exitCode),
          true);
    }
    return new Ended(c, exitCode, ContainerActor.exitDiagnostics(exitCode, Path.of(c.logDir())), false);
  }

  /** Gone without a trace of how: a kill asked for counts as done, anything else is lost. */
  private static Outcome lost(StoredContainer c, String why) {
    if (c.killReason() != null) return new Ended(c, c.killReason().exitStatus(), c.killDiagnostics(), true);
    return new Ended(c, ProcessFiles.LOST, "Container " + c.containerId() + " was lost while its NodeManager was down: " + why
        + ". Exit code is " + ProcessFiles.LOST + " (LOST)", false);
  }

  private static boolean sameDir(Path a, Path b) {
    if (a.equals(b)) return true;
    try {
      return a.toRealPath().equals(b.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }
}
