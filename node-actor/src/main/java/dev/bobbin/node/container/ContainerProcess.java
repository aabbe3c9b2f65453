package dev.bobbin.node.container;

import java.util.concurrent.CompletionStage;

/**
 * A started container process and everything it forked. Used by one container actor only, so
 * implementations need not be thread-safe; the calls may block briefly.
 */
public interface ContainerProcess {
  long pid();

  /** Completes with the exit code of the root process. */
  CompletionStage<Integer> onExit();

  /** Asks the whole tree to stop (SIGTERM). */
  void terminate();

  /** Ends the whole tree at once (SIGKILL), including processes it left behind. */
  void forceKill();

  /** Whether the root or any process seen in the tree is still alive. */
  boolean treeAlive();

  /**
   * Looks whether the root has ended, completing {@link #onExit()} if so, for a process that is no
   * child of this NodeManager and so cannot be waited for; the container actor calls it on a timer.
   */
  default void poll() {}
}
