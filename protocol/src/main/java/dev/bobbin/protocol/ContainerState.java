package dev.bobbin.protocol;

/** YARN's public container state, as carried in a {@link ContainerStatus}. */
public enum ContainerState {
  NEW,
  RUNNING,
  COMPLETE
}
