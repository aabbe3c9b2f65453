package dev.bobbin.protocol.node;

import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.NodeAction;
import java.util.List;

/**
 * RM → NM: what to kill, what to forget, and when to call again. {@code rmEpoch} is the epoch of
 * the scheduler that answered (0 when unknown): a NodeManager that has seen a higher one ignores
 * the orders of this response and refuses container tokens of older epochs, which fences a
 * scheduler that lives on in a member the cluster already downed. {@code containerTokenKeys},
 * when not empty, replaces the NodeManager's container-token keys: the RM sends them when it holds
 * a key newer than the one the heartbeat named, before that key signs any token. {@code
 * clusterId} names the cluster that answered ("" when unknown): a NodeManager that follows another
 * cluster registers with this one from scratch instead of comparing epochs.
 */
public record NodeHeartbeatResponse(
    int responseId,
    NodeAction nodeAction,
    List<String> containersToCleanup,
    List<String> applicationsToCleanup,
    List<String> containersToBeRemovedFromNm,
    long nextHeartbeatIntervalMs,
    String diagnostics,
    long rmEpoch,
    List<ContainerTokenKey> containerTokenKeys,
    String clusterId) implements CborSerializable {
  public NodeHeartbeatResponse {
    containersToCleanup = containersToCleanup == null ? List.of() : List.copyOf(containersToCleanup);
    applicationsToCleanup = applicationsToCleanup == null ? List.of() : List.copyOf(applicationsToCleanup);
    containersToBeRemovedFromNm =
        containersToBeRemovedFromNm == null ? List.of() : List.copyOf(containersToBeRemovedFromNm);
    diagnostics = diagnostics == null ? "" : diagnostics;
    containerTokenKeys = containerTokenKeys == null ? List.of() : List.copyOf(containerTokenKeys);
    clusterId = clusterId == null ? "" : clusterId;
  }

  public NodeHeartbeatResponse(
      int responseId, NodeAction nodeAction, List<String> containersToCleanup, List<String> applicationsToCleanup,
      List<String> containersToBeRemovedFromNm, long nextHeartbeatIntervalMs, String diagnostics, long rmEpoch,
      List<ContainerTokenKey> containerTokenKeys) {
    this(responseId, nodeAction, containersToCleanup, applicationsToCleanup, containersToBeRemovedFromNm,
        nextHeartbeatIntervalMs, diagnostics, rmEpoch, containerTokenKeys, "");
  }

  public NodeHeartbeatResponse(
      int responseId, NodeAction nodeAction, List<String> containersToCleanup, List<String> applicationsToCleanup,
      List<String> containersToBeRemovedFromNm, long nextHeartbeatIntervalMs, String diagnostics, long rmEpoch) {
    this(responseId, nodeAction, containersToCleanup, applicationsToCleanup, containersToBeRemovedFromNm,
        nextHeartbeatIntervalMs, diagnostics, rmEpoch, List.of());
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

  /** The same response, handing the node these container-token keys. */
  public NodeHeartbeatResponse withContainerTokenKeys(List<ContainerTokenKey> keys) {
    return new NodeHeartbeatResponse(responseId, nodeAction, containersToCleanup, applicationsToCleanup,
        containersToBeRemovedFromNm, nextHeartbeatIntervalMs, diagnostics, rmEpoch, keys, clusterId);
  }

  /** The same response, naming the cluster that answers. */
  public NodeHeartbeatResponse withClusterId(String id) {
    return new NodeHeartbeatResponse(responseId, nodeAction, containersToCleanup, applicationsToCleanup,
        containersToBeRemovedFromNm, nextHeartbeatIntervalMs, diagnostics, rmEpoch, containerTokenKeys, id);
  }
}
