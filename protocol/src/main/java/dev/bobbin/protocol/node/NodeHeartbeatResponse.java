package dev.bobbin.protocol.node;

import dev.bobbin.protocol.NodeAction;
import java.util.List;

/** RM → NM: what to kill, what to forget, and when to call again. */
public record NodeHeartbeatResponse(
    int responseId,
    NodeAction nodeAction,
    List<String> containersToCleanup,
    List<String> applicationsToCleanup,
    List<String> containersToBeRemovedFromNm,
    long nextHeartbeatIntervalMs,
    String diagnostics) {
  public NodeHeartbeatResponse {
    containersToCleanup = containersToCleanup == null ? List.of() : List.copyOf(containersToCleanup);
    applicationsToCleanup = applicationsToCleanup == null ? List.of() : List.copyOf(applicationsToCleanup);
    containersToBeRemovedFromNm =
        containersToBeRemovedFromNm == null ? List.of() : List.copyOf(containersToBeRemovedFromNm);
    diagnostics = diagnostics == null ? "" : diagnostics;
  }

  public static NodeHeartbeatResponse resync(String diagnostics) {
    return new NodeHeartbeatResponse(0, NodeAction.RESYNC, List.of(), List.of(), List.of(), 0, diagnostics);
  }
}
