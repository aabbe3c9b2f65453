package dev.bobbin.core.policy;

import java.util.List;

/**
 * What a policy's periodic update decided: the containers to take back and why, and the starvation
 * clocks to journal so that a timeout keeps running when the scheduler moves.
 *
 * @param kills for a policy that {@linkplain PolicySet#decidesKills decides its kills}: containers
 *     being taken back to kill now
 * @param cancelled for such a policy: containers being taken back that it no longer wants; their
 *     AMs stop hearing of them and they end as they would have
 * @param observed what a policy that only observes would have taken: logged, not carried out
 */
public record PolicyUpdate(List<Preemption> preemptions, StarvationClocks clocks, List<String> kills,
    List<String> cancelled, List<Preemption> observed) {
  public static final PolicyUpdate NONE = new PolicyUpdate(List.of(), StarvationClocks.EMPTY);

  public PolicyUpdate {
    preemptions = List.copyOf(preemptions);
    kills = List.copyOf(kills);
    cancelled = List.copyOf(cancelled);
    observed = List.copyOf(observed);
  }

  /** Preemptions the scheduler kills once {@link PolicySet#waitBeforeKill} has passed. */
  public PolicyUpdate(List<Preemption> preemptions, StarvationClocks clocks) {
    this(preemptions, clocks, List.of(), List.of(), List.of());
  }

  /** What an observe-only round would have taken. */
  public static PolicyUpdate observing(List<Preemption> observed) {
    return new PolicyUpdate(List.of(), StarvationClocks.EMPTY, List.of(), List.of(), observed);
  }
}
