package dev.bobbin.node.container;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A fake process whose reaction to signals each test chooses. */
final class TestingContainerProcess implements ContainerProcess {
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final Consumer<TestingContainerProcess> onTerminate;
  private final Consumer<TestingContainerProcess> onForceKill;
  final AtomicInteger terminations = new AtomicInteger();
  final AtomicInteger forceKills = new AtomicInteger();
  private volatile boolean treeAlive = true;

  private TestingContainerProcess(
      Consumer<TestingContainerProcess> onTerminate, Consumer<TestingContainerProcess> onForceKill) {
    this.onTerminate = onTerminate;
    this.onForceKill = onForceKill;
  }

  /** Exits 143 on SIGTERM, taking its children with it. */
  static TestingContainerProcess polite() {
    return new TestingContainerProcess(p -> p.exit(143), p -> p.exit(137));
  }

  /** The root exits on SIGTERM, but a child survives until SIGKILL. */
  static TestingContainerProcess withStubbornChild() {
    return new TestingContainerProcess(p -> p.exitLeavingChildren(143), p -> p.exit(137));
  }

  /** Ignores SIGTERM altogether. */
  static TestingContainerProcess deaf() {
    return new TestingContainerProcess(p -> {}, p -> p.exit(137));
  }

  void exit(int code) {
    treeAlive = false;
    exit.complete(code);
  }

  void exitLeavingChildren(int code) {
    exit.complete(code);
  }

  @Override
  public long pid() {
    return 4242;
  }

  @Override
  public CompletionStage<Integer> onExit() {
    return exit;
  }

  @Override
  public void terminate() {
    terminations.incrementAndGet();
    onTerminate.accept(this);
  }

  @Override
  public void forceKill() {
    forceKills.incrementAndGet();
    if (!exit.isDone() || treeAlive) onForceKill.accept(this);
  }

  @Override
  public boolean treeAlive() {
    return treeAlive;
  }
}
