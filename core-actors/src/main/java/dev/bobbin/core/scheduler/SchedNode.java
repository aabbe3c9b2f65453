package dev.bobbin.core.scheduler;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/** The scheduler's live view of one node; rebuilt from registrations and heartbeats. */
final class SchedNode {
  final NodeEntity.Registration registration;
  NodeState state = NodeState.RUNNING;
  Resource allocated = Resource.NONE;
  final Set<String> containers = new LinkedHashSet<>();
  /** Containers the NM must kill; repeated until it reports them complete. */
  final Set<String> toKill = new LinkedHashSet<>();
  /** Finished applications whose leftovers the NM should clean up; sent once. */
  final Set<String> appsToCleanup = new LinkedHashSet<>();
  /** Completed containers whose completion is durable; sent once. */
  final Set<String> toRemoveFromNm = new LinkedHashSet<>();
  NodeHeartbeatResponse lastResponse;
  long lastHeartbeat;
  String healthReport = "";
  /** When the node last checked its health, by its own clock (epoch ms). */
  long lastHealthUpdate;
  /** While DECOMMISSIONING: when its remaining containers are killed (epoch ms). */
  long decommissionUntil;
  /** While DECOMMISSIONING: since when (epoch ms); 0 when a recovered journal said so. */
  long decommissionSince;
  /** Since when the host lists no longer track this dead node (ms); 0 while they do, or it lives. */
  long untrackedSince;
  /** Known from the journal; its NodeManager has not re-registered with this scheduler yet. */
  boolean awaitingResync;
  /**
   * Allocations released before the NodeManager reported them, still counted in {@code allocated}:
   * their start may be on its way to the node. Each is let go once the node has heard the kill
   * (it then refuses a late start) and does not report the container running.
   */
  final Map<String, Hold> held = new LinkedHashMap<>();

  /** {@code killResponseId}: the heartbeat response that carries the kill to the node. */
  record Hold(Resource resource, long killResponseId) {}

  /** Keeps a released, never-reported allocation counted until the node confirms it is not starting it. */
  void hold(String containerId, Resource resource) {
    long next = lastResponse == null ? 0 : lastResponse.responseId() + 1;
    held.put(containerId, new Hold(resource, next));
    toKill.add(containerId);
  }

  /** Frees the holds this heartbeat settles: the node had the kill and runs none of them. */
  void settleHolds(long requestResponseId, Set<String> running) {
    var it = held.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (requestResponseId < e.getValue().killResponseId() || running.contains(e.getKey())) continue;
      allocated = allocated.minus(e.getValue().resource());
      toKill.remove(e.getKey());
      it.remove();
    }
  }

  SchedNode(NodeEntity.Registration registration, long now) {
    this.registration = registration;
    this.lastHeartbeat = now;
    this.lastHealthUpdate = now;
  }

  String id() {
    return registration.nodeId();
  }

  /** The capability it registered with, to which a recommission restores it. */
  Resource capacity() {
    return registration.capability();
  }

  /**
   * Whether it counts in the cluster's totals: in service, or DECOMMISSIONING. As YARN's scheduler
   * keeps a decommissioning node, with its total cut to what it still runs as each container ends,
   * its space that will not come back is no longer anyone's share, while what it runs still counts
   * as used.
   */
  boolean countsInCluster() {
    return state.isUsable() || state == NodeState.DECOMMISSIONING;
  }

  /** What it adds to the cluster's total: its capability, or while DECOMMISSIONING what it still runs. */
  Resource countedCapacity() {
    return state == NodeState.DECOMMISSIONING ? allocated : capacity();
  }

  NodeView view() {
    return new NodeView(id(), registration.host(), registration.rack(), capacity(), allocated);
  }
}
