package dev.bobbin.am;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import java.util.List;

/**
 * Callbacks for an AM written without actors (see {@link AmSession}). They are called one at a
 * time, in order, from one actor: keep them short and hand long work elsewhere.
 */
public interface AmListener {
  void onContainersAllocated(List<Container> containers);

  void onContainersCompleted(List<ContainerStatus> statuses);

  default void onRegistered(RegisterAmResponse response, boolean afterResync) {}

  /** The RM no longer knows this attempt: exit without unregistering. */
  default void onShutdownRequest(String reason) {}

  /** Heartbeats stopped; unregistering (usually FAILED) is still possible. */
  default void onError(String reason) {}
}
