package dev.bobbin.protocol.node;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.NodeAction;
import java.util.List;

/**
 * RM → NM: what to kill, what to forget, and when to call again. {@code rmEpoch} is the epoch of
 * the scheduler that answered (0 when unknown): a NodeManager that has seen a higher one ignores
 * the orders of this response and refuses container tokens of older epochs, which fences a
 * scheduler that lives on in a member the cluster already downed.
 */
public record NodeHeartbeatResponse(
    int responseId,
    NodeAction nodeAction,
    List<String> containersToCleanup,
    List<String> applicationsToCleanup,
    List<String> containersToBeRemovedFromNm,
    long nextHeartbeatIntervalMs,
    String diagnostics,
    long rmEpoch) implements CborSerializable {
  public NodeHeartbeatResponse {
    containersToCleanup = containersToCleanup == null ? List.of() : List.copyOf(containersToCleanup);
    applicationsToCleanup = applicationsToCleanup == null ? List.of() : List.copyOf(applicationsToCleanup);
    containersToBeRemovedFromNm =
        containersToBeRemovedFromNm == null ? List.of() : List.copyOf(containersToBeRemovedFromNm);
    diagnostics = diagnostics == null ? "" : diagnostics;
  }

  public NodeHeartbeatResponse(
      int responseId, NodeAction nodeAction, List<String> containersToCleanup, List<String> applicationsToCleanup,
      List<String> containersToBeRemovedFromNm, long nextHeartbeatIntervalMs, String diagnostics) {
    this(responseId, nodeAction, containersToCleanup, applicationsToCleanup, containersToBeRemovedFromNm,
        nextHeartbeatIntervalMs, diagnostics, 0);
  }

  public static NodeHeartbeatResponse resync(String diagnostics) {
    return new NodeHeartbeatResponse(0, NodeAction.RESYNC, List.of(), List.of(), List.of(), 0, diagnostics, 0);
  }
}
