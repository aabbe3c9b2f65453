package dev.bobbin.node.container;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A container process that an earlier NodeManager on this node launched, taken back after a
 * restart. It is no child of this NodeManager: its end is seen by {@link #poll()}, and its exit code
 * read from the file its launch script wrote ({@link ProcessFiles}). Its root leads its own process
 * group, as every container's does, so signals reach the tree as for a container launched here;
 * the root itself is only signalled while it is still the recorded process.
 */
public final class ReattachedProcess implements ContainerProcess {
  private final ProcessIdentity root;
  private final Path workDir;
  private final String containerId;
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Set<ProcessHandle> seen = new LinkedHashSet<>();

  public ReattachedProcess(ProcessIdentity root, Path workDir, String containerId) {
    this.root = root;
    this.workDir = workDir;
    this.containerId = containerId;
  }

  @Override
  public long pid() {
    return root.pid();
  }

  @Override
  public CompletionStage<Integer> onExit() {
    return exit;
  }

  @Override
  public void poll() {
    if (exit.isDone() || root.isRunning()) return;
    exit.complete(ProcessFiles.exitCode(workDir, containerId).orElse(ProcessFiles.LOST));
  }

  @Override
  public void terminate() {
    rememberDescendants();
    LocalContainerProcess.signalGroup(root.pid(), "TERM");
    seen.forEach(ProcessHandle::destroy);
  }

  @Override
  public void forceKill() {
    rememberDescendants();
    LocalContainerProcess.signalGroup(root.pid(), "KILL");
    seen.forEach(ProcessHandle::destroyForcibly);
  }

  @Override
  public boolean treeAlive() {
    return root.isRunning() || seen.stream().anyMatch(LocalContainerProcess::running);
  }

  private void rememberDescendants() {
    if (root.isRunning()) ProcessHandle.of(root.pid()).ifPresent(h -> h.descendants().forEach(seen::add));
  }
}
