package dev.bobbin.node.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A container process started by {@link LocalProcessLauncher}. Signals go to the process group
 * (which also reaches children already re-parented away from the root) and, as a fallback, to
 * every descendant seen so far.
 */
final class LocalContainerProcess implements ContainerProcess {
  private final Process process;
  private final boolean ownProcessGroup;
  private final Set<ProcessHandle> seen = new LinkedHashSet<>();

  LocalContainerProcess(Process process, boolean ownProcessGroup) {
    this.process = process;
    this.ownProcessGroup = ownProcessGroup;
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public CompletionStage<Integer> onExit() {
    return process.onExit().thenApply(Process::exitValue);
  }

  @Override
  public void terminate() {
    rememberDescendants();
    signalGroup("TERM");
    seen.forEach(ProcessHandle::destroy);
    process.destroy();
  }

  @Override
  public void forceKill() {
    rememberDescendants();
    signalGroup("KILL");
    seen.forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  @Override
  public boolean treeAlive() {
    return process.isAlive() || seen.stream().anyMatch(LocalContainerProcess::running);
  }

  /**
   * Alive and not a zombie. Children re-parented to an init that reaps slowly stay zombies for a
   * while, and ProcessHandle counts those as alive, though they hold nothing but a pid.
   */
  static boolean running(ProcessHandle p) {
    if (!p.isAlive()) return false;
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
      int afterName = stat.lastIndexOf(')');
      return afterName < 0 || afterName + 2 >= stat.length() || stat.charAt(afterName + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return p.isAlive();
    }
  }

  private void rememberDescendants() {
    process.toHandle().descendants().forEach(seen::add);
  }

  private void signalGroup(String signal) {
    if (ownProcessGroup) signalGroup(process.pid(), signal);
  }

  /** Signals the process group {@code pgid}; its members' own signals are the fallback when this fails. */
  static void signalGroup(long pgid, String signal) {
    try {
      Process kill =
          new ProcessBuilder("kill", "-s", signal, "--", "-" + pgid)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!kill.waitFor(2, TimeUnit.SECONDS)) kill.destroyForcibly();
    } catch (IOException e) {
      // The descendants fallback still runs.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
