package dev.bobbin.core.scheduler;

import dev.bobbin.config.fair.FairGlobalSettings;
import dev.bobbin.config.fair.FairSchedulerConfig;
import dev.bobbin.core.policy.fair.PreemptionSettings;

/** The Fair policy's configuration: queues and placement, and the scheduler-wide switches. */
public record FairSetup(FairSchedulerConfig config, FairGlobalSettings global) {
  PreemptionSettings preemption() {
    return new PreemptionSettings(global.preemptionEnabled(), global.preemptionUtilizationThreshold(),
        global.waitTimeBeforeKill());
  }
}
