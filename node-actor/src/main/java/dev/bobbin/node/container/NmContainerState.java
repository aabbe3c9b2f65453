package dev.bobbin.node.container;

import dev.bobbin.protocol.ContainerState;

/**
 * The NodeManager's own container states, named as YARN's NM REST reports them. Bobbin uses the
 * subset its lifecycle passes through: NEW → RUNNING → (KILLING →) a final state.
 */
public enum NmContainerState {
  NEW,
  RUNNING,
  KILLING,
  EXITED_WITH_SUCCESS,
  EXITED_WITH_FAILURE,
  /** Killed on request and cleaned up. */
  DONE;

  public boolean isFinal() {
    return this == EXITED_WITH_SUCCESS || this == EXITED_WITH_FAILURE || this == DONE;
  }

  /** The public state carried in heartbeats: everything not final counts as running. */
  public ContainerState publicState() {
    return isFinal() ? ContainerState.COMPLETE : ContainerState.RUNNING;
  }
}
