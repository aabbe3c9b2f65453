package dev.bobbin.am;

import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import java.util.List;

/** What an {@link AmClient} tells the AM's listener, in the order it learned it. */
public sealed interface AmEvent {

  /**
   * The attempt is registered. {@code afterResync} is true when the client re-registered because
   * the RM had lost the registration; outstanding asks and releases have then been re-sent.
   */
  record Registered(RegisterAmResponse response, boolean afterResync) implements AmEvent {}

  /** New containers, each delivered once; the client already decremented the matching asks. */
  record ContainersAllocated(List<Container> containers) implements AmEvent {}

  /** Containers that finished (including released, lost and preempted ones), each delivered once. */
  record ContainersCompleted(List<ContainerStatus> statuses) implements AmEvent {}

  /** The RM no longer knows this attempt (or sent AM_SHUTDOWN): the AM should exit, not unregister. */
  record ShutdownRequested(String reason) implements AmEvent {}

  /**
   * The client stopped heartbeating: the RM rejected a call or stayed unreachable. The AM may still
   * ask to unregister, normally with FAILED and this reason.
   */
  record Failed(String reason) implements AmEvent {}

  /** The RM has durably recorded the final status. */
  record Unregistered(FinalApplicationStatus finalStatus) implements AmEvent {}
}
