package dev.bobbin.config.fair;

/** A parent queue holds queues; a leaf queue holds applications. */
public enum QueueType {
  PARENT,
  LEAF
}
