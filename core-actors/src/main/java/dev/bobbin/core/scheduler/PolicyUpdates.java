package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policy.PolicyUpdate;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.core.policy.StarvationClocks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The policy's periodic update carried out: its starvation clocks journalled when they change, its
 * preemptions marked and recorded with their reasons (the AMs hear of them in their next allocate
 * response), and what is past its grace period killed, or, for a policy that decides its kills, what
 * it says to kill, with the preemptions it cancels forgotten.
 */
final class PolicyUpdates {
  private static final Logger log = LoggerFactory.getLogger(PolicyUpdates.class);

  private final SchedulerModel model;
  private final PolicySet policy;
  private final Lifecycles lifecycles;
  private final SchedulerDeps deps;
  private final Acts acts;
  private StarvationClocks journalled;

  PolicyUpdates(SchedulerModel model, PolicySet policy, Lifecycles lifecycles, SchedulerDeps deps, Acts acts,
      StarvationClocks restored) {
    this.model = model;
    this.policy = policy;
    this.lifecycles = lifecycles;
    this.deps = deps;
    this.acts = acts;
    this.journalled = restored;
    policy.restoreClocks(restored);
  }

  static StarvationClocks clocks(EpochEntity.Clocks saved) {
    return new StarvationClocks(saved.appsBelowSince(), saved.queuesBelowSince(), saved.appsRecheckAfter());
  }

  void update() {
    long now = deps.clock().millis();
    PolicyUpdate update = policy.update(new ModelView(model), now);
    if (!update.clocks().equals(journalled)) {
      // So that a running starvation timeout survives a move of the scheduler.
      journalled = update.clocks();
      acts.write(new Write.SaveClocks(new EpochEntity.Clocks(journalled.appsBelowSince(),
          journalled.queuesBelowSince(), journalled.appsRecheckAfter())));
    }
    for (Preemption p : update.observed()) {
      for (Preemption.Victim v : p.victims()) {
        log.info("Observing only, would preempt {} of {} on {}: {}", v.containerIds(), v.appId(), p.nodeId(), v.reason());
      }
    }
    long killAt = now + policy.waitBeforeKill().toMillis();
    for (Preemption p : update.preemptions()) {
      for (PreemptionRecord r : model.preempting().start(p, now, killAt)) {
        log.info("Preempting {} of {} on {} for {}: {}", r.containerId(), r.victimAppId(), p.nodeId(),
            r.starvedAppId(), r.reason());
        acts.write(new Write.RecordPreemption(r));
      }
    }
    for (String id : update.cancelled()) {
      PreemptionRecord r = model.preempting().cancel(id);
      if (r == null) continue;
      log.info("Preemption of {} of {} cancelled: the policy no longer wants it", id, r.victimAppId());
      acts.write(new Write.CancelPreemption(r));
    }
    Preempting.Due due = policy.decidesKills() ? model.preempting().killNow(update.kills()) : model.preempting().due(now);
    for (PreemptionRecord r : due.killed()) {
      log.info("Killing preempted container {} of {} after the grace period", r.containerId(), r.victimAppId());
    }
    for (PreemptionRecord r : due.toRelease()) {
      lifecycles.release(model.container(r.containerId()),
          "Container preempted by scheduler before it started: " + r.reason());
    }
    acts.scheduleSoon();
  }
}
