package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.ContainerStatus;

/**
 * What the parts of the scheduler have its actor do. The actor carries each out through
 * {@link SchedulerEffects} and hears the outcome as a message when it calls for more; the parts
 * only decide.
 */
interface Acts {
  /** Persists a placement; {@link Allocator#allocationDone} takes the answer. */
  void persistAllocation(SchedContainer c);

  /** Persists a completion; {@link Lifecycles#completionDone} takes the answer, and a failure is written again. */
  void complete(String containerId, ContainerStatus status);

  /** Ends an allocation whose write got no answer. */
  void withdraw(String containerId);

  /** Journals a decision, sending it again while it gets no answer. */
  void write(Write write);

  /** Starts the attempt's AM container; a failed start completes it. */
  void launchAm(ContainerEntity.Allocation allocation, SchedApp app);

  /** Asks the journal about a container a NodeManager runs and the model lacks. */
  void lookUpContainer(String nodeId, String containerId);

  /** Asks whether an application a NodeManager reports has ended. */
  void lookUpApp(String nodeId, String appId);

  /** A scheduling pass once the messages already waiting are handled. */
  void scheduleSoon();
}
