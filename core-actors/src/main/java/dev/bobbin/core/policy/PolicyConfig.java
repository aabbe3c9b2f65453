package dev.bobbin.core.policy;

import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.FairSetup;

/**
 * What a policy set is built from: the scheduler's settings, and the configuration of the policy
 * they name ({@code PolicySets} reads it).
 *
 * @param fair the Fair policy's queues and switches; null unless the policy is fair
 */
public record PolicyConfig(SchedulerSettings scheduler, FairSetup fair) {}
