package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.Ask;
import java.util.List;

/** A container the scheduler counts against its node, from placement until its completion is durable. */
final class SchedContainer {
  enum Phase {
    /** Placed; its Container entity is persisting the allocation. */
    IN_FLIGHT,
    /** Durable; handed or about to be handed to its AM. */
    ALLOCATED,
    /** Its NM reported it running. */
    RUNNING,
    /** Finished; its completion is being persisted. Its resources are already free. */
    COMPLETING
  }

  final ContainerEntity.Allocation allocation;
  final long allocatedTime;
  /** Changed through {@link SchedulerModel#setPhase} once the model tracks the container. */
  Phase phase = Phase.IN_FLIGHT;
  /** False for a container recovered from the journal until its NodeManager reports it. */
  boolean confirmed = true;
  /**
   * The asks its placement took one from, each with a count of 1, given back if its write fails;
   * empty for a container the scheduler did not place itself (recovered or adopted).
   */
  List<Ask> charged = List.of();

  SchedContainer(ContainerEntity.Allocation allocation, long allocatedTime) {
    this.allocation = allocation;
    this.allocatedTime = allocatedTime;
  }

  /** Counted against its node and application: placed and not yet finished. */
  boolean isLive() {
    return phase != Phase.COMPLETING;
  }

  String id() {
    return allocation.containerId();
  }
}
