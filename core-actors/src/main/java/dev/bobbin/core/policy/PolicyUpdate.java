package dev.bobbin.core.policy;

import java.util.List;

/**
 * What a policy's periodic update decided: the containers to take back and why, and the starvation
 * clocks to journal so that a timeout keeps running when the scheduler moves.
 */
public record PolicyUpdate(List<Preemption> preemptions, StarvationClocks clocks) {
  public static final PolicyUpdate NONE = new PolicyUpdate(List.of(), StarvationClocks.EMPTY);

  public PolicyUpdate {
    preemptions = List.copyOf(preemptions);
  }
}
