package dev.bobbin.config.capacity;

/** The state an operator gives a queue: a STOPPED queue takes no new applications and drains. */
public enum QueueState {
  RUNNING,
  STOPPED
}
