package dev.bobbin.core.scheduler;

import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.util.LinkedHashSet;
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
  /** Known from the journal; its NodeManager has not re-registered with this scheduler yet. */
  boolean awaitingResync;

  SchedNode(NodeEntity.Registration registration, long now) {
    this.registration = registration;
    this.lastHeartbeat = now;
  }

  String id() {
    return registration.nodeId();
  }

  Resource capacity() {
    return registration.capability();
  }

  NodeView view() {
    return new NodeView(id(), registration.host(), registration.rack(), capacity(), allocated);
  }
}
