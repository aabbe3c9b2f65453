package dev.bobbin.core.policy.capacity;

/** A capacity queue's configured {@code state}. */
public enum CapacityQueueState {
  RUNNING,
  STOPPED
}
