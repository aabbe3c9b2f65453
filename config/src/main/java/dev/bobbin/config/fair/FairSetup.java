package dev.bobbin.config.fair;

/** The Fair policy's configuration: queues and placement, and the scheduler-wide switches. */
public record FairSetup(FairSchedulerConfig config, FairGlobalSettings global) {}
