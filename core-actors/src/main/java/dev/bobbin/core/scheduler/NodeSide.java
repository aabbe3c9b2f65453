package dev.bobbin.core.scheduler;

import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NodeManagers' side of the scheduler, as YARN's ResourceTrackerService and NM liveness monitor:
 * registrations, heartbeats with their response ids, what a node's report of its containers calls
 * for, the health nodes report of themselves, and nodes that stop heartbeating.
 */
final class NodeSide {
  private static final Logger log = LoggerFactory.getLogger(NodeSide.class);

  private final SchedulerModel model;
  private final Lifecycles lifecycles;
  private final SchedulerDeps deps;
  private final long epoch;
  private final Acts acts;

  NodeSide(SchedulerModel model, Lifecycles lifecycles, SchedulerDeps deps, long epoch, Acts acts) {
    this.model = model;
    this.lifecycles = lifecycles;
    this.deps = deps;
    this.epoch = epoch;
    this.acts = acts;
  }

  /**
   * A node (re-)registers: what was known of it carries over, and what it reports is read.
   *
   * @return the scheduler's epoch, for the node's fencing
   */
  long register(SchedulerProtocol.NodeRegistered m) {
    long now = deps.clock().millis();
    SchedNode old = model.node(m.registration().nodeId());
    SchedNode node = new SchedNode(m.registration(), now);
    if (old != null) {
      if (old.state == NodeState.UNHEALTHY) {
        // Until a heartbeat says otherwise: a registration carries no health.
        node.state = NodeState.UNHEALTHY;
        node.healthReport = old.healthReport;
        node.lastHealthUpdate = old.lastHealthUpdate;
      }
      if (old.state == NodeState.DECOMMISSIONING) {
        // A registration does not end a graceful decommission.
        node.state = NodeState.DECOMMISSIONING;
        node.decommissionUntil = old.decommissionUntil;
        node.decommissionSince = old.decommissionSince;
      }
      node.allocated = old.allocated;
      node.containers.addAll(old.containers);
      node.toKill.addAll(old.toKill);
      node.appsToCleanup.addAll(old.appsToCleanup);
    }
    model.putNode(node);
    node.lastResponse = new NodeHeartbeatResponse(0, NodeAction.NORMAL, List.of(), List.of(), List.of(), 0, "", epoch);
    // Response ids start again with a registration: the kills go out with the next response.
    if (old != null) old.held.forEach((id, h) -> node.hold(id, h.resource()));
    actOn(node, model.readReport(node, m.containers()));
    for (String appId : model.cleanup().ranOnReported(node.id(), m.runningApplications())) acts.lookUpApp(node.id(), appId);
    log.info("Node {} registered with {}", node.id(), node.capacity());
    acts.scheduleSoon();
    return epoch;
  }

  NodeHeartbeatResponse heartbeat(NodeHeartbeatRequest req) {
    SchedNode node = model.node(req.nodeId());
    if (node != null && node.state == NodeState.DECOMMISSIONED) return shutdown(node);
    if (node == null || !node.state.isAnswered() || node.awaitingResync) {
      return NodeHeartbeatResponse.resync("Node not found resyncing " + req.nodeId());
    }
    NodeHeartbeatResponse last = node.lastResponse;
    if (req.responseId() + 1 == last.responseId()) return last;
    if (req.responseId() != last.responseId()) {
      return NodeHeartbeatResponse.resync("Too far behind rm response id:" + last.responseId()
          + " nm response id:" + req.responseId());
    }
    node.lastHeartbeat = deps.clock().millis();
    followHealth(node, req);
    actOn(node, model.readReport(node, req.containerStatuses()));
    if (!node.held.isEmpty()) {
      Set<String> running = new HashSet<>();
      for (ContainerStatus s : req.containerStatuses()) if (!s.isComplete()) running.add(s.containerId());
      node.settleHolds(req.responseId(), running);
    }
    NodeHeartbeatResponse resp = new NodeHeartbeatResponse(
        last.responseId() + 1, NodeAction.NORMAL, List.copyOf(node.toKill), List.copyOf(node.appsToCleanup),
        List.copyOf(node.toRemoveFromNm), deps.nmHeartbeatInterval().toMillis(), "", epoch);
    node.appsToCleanup.clear();
    node.toRemoveFromNm.clear();
    node.lastResponse = resp;
    // A pass places asks only; with none waiting it would do nothing, once per heartbeat.
    if (!model.waitingApps().isEmpty()) acts.scheduleSoon();
    return resp;
  }

  /**
   * As YARN's RMNodeImpl: a RUNNING node that reports itself unhealthy becomes UNHEALTHY, in the
   * journal too, and takes no new containers while those it runs go on and it keeps heartbeating; it
   * is RUNNING again with its first healthy report. A decommissioning node stays decommissioning.
   */
  private void followHealth(SchedNode node, NodeHeartbeatRequest req) {
    node.healthReport = req.healthReport();
    node.lastHealthUpdate = req.lastHealthReportTime() > 0 ? req.lastHealthReportTime() : node.lastHeartbeat;
    if (!req.healthy() && node.state == NodeState.RUNNING) {
      node.state = NodeState.UNHEALTHY;
      log.warn("Node {} reported unhealthy, taking no new containers: {}", node.id(), req.healthReport());
      acts.write(new Write.MarkNode(node.id(), NodeState.UNHEALTHY, req.healthReport()));
    } else if (req.healthy() && node.state == NodeState.UNHEALTHY) {
      node.state = NodeState.RUNNING;
      log.info("Node {} reported healthy again, taking new containers", node.id());
      acts.write(new Write.MarkNode(node.id(), NodeState.RUNNING, "healthy again"));
      acts.scheduleSoon();
    }
  }

  private void actOn(SchedNode node, SchedulerModel.ReportedContainers report) {
    for (ContainerStatus s : report.completed()) {
      lifecycles.complete(s.containerId(), s.exitStatus(), s.diagnostics());
    }
    for (String id : report.unknown()) {
      if (!node.toKill.contains(id) && model.startAdoption(id)) acts.lookUpContainer(node.id(), id);
    }
    for (String id : report.started()) acts.write(new Write.MarkRunning(id));
  }

  /** The journal's answer about a container a node runs and the model lacks: adopted, or killed. */
  void adoptionChecked(SchedulerProtocol.AdoptionChecked m) {
    model.endAdoption(m.containerId());
    SchedNode node = model.node(m.nodeId());
    if (model.container(m.containerId()) != null || node == null) return;
    if (m.error() != null) {
      // Its entity may be moving too; the NM reports the container again with its next heartbeat.
      log.warn("Could not look up unknown container {} on {}: {}", m.containerId(), m.nodeId(), m.error());
      return;
    }
    ContainerEntity.Report r = m.report();
    SchedApp app = r == null || r.allocation() == null ? null : model.appOfAttempt(r.allocation().attemptId());
    String refusal = Adoption.refusal(r, node.id(), app != null, node.allocated, node.capacity(), model::fits);
    if (refusal != null) {
      log.info("Killing container {} on {}, unknown to the scheduler: {}", m.containerId(), node.id(), refusal);
      node.toKill.add(m.containerId());
      return;
    }
    SchedContainer c = new SchedContainer(r.allocation(), r.allocatedTime());
    model.adopt(node, c, app, r.preemption());
    if (r.phase() == ContainerEntity.Phase.ALLOCATED) acts.write(new Write.MarkRunning(c.id()));
    log.info("Adopted container {} on {}: its NM runs it and the journal holds its allocation", c.id(), node.id());
  }

  void reportedAppLookedUp(SchedulerProtocol.ReportedAppLookedUp m) {
    if (m.ended() == null) {
      // Left as it is: the node keeps reporting it with each registration, which asks again.
      log.warn("Application {} that node {} reports did not say whether it ended", m.appId(), m.nodeId());
      return;
    }
    model.cleanup().reportedAppLookedUp(m.nodeId(), m.appId(), m.ended());
  }

  /** A decommissioned node's answer: shut down (the NodeManager kills what it still runs as it stops). */
  private NodeHeartbeatResponse shutdown(SchedNode node) {
    return new NodeHeartbeatResponse(0, NodeAction.SHUTDOWN, List.of(), List.of(), List.of(),
        deps.nmHeartbeatInterval().toMillis(), "Disallowed NodeManager nodeId: " + node.id() + " hostname: "
        + node.registration.host(), epoch);
  }

  /** A node silent for the NM expiry is LOST, in the journal too, and its containers with it. */
  void expireNodes() {
    long now = deps.clock().millis();
    for (SchedNode node : model.nodes()) {
      if (node.state.isAnswered() && now - node.lastHeartbeat > deps.nmExpiry().toMillis()) {
        log.warn("Node {} lost: no heartbeat for {}", node.id(), deps.nmExpiry());
        deactivate(node, NodeState.LOST, "no heartbeat for " + deps.nmExpiry());
      }
    }
  }

  /**
   * As YARN's UnRegisterNodeManager: a NodeManager stopping gracefully makes its node SHUTDOWN at
   * once, in the journal too, and its containers are gone as a lost node's are. It may register again.
   */
  UnregisterNodeResponse unregister(String nodeId) {
    SchedNode node = model.node(nodeId);
    if (node == null) return new UnregisterNodeResponse("Node not found: " + nodeId);
    if (!node.state.isAnswered() && !node.awaitingResync) {
      return new UnregisterNodeResponse("Node " + nodeId + " is " + node.state + " already");
    }
    log.info("Node {} shut down: its NodeManager stopped ({} containers)", nodeId, node.containers.size());
    deactivate(node, NodeState.SHUTDOWN, "its NodeManager shut down");
    return new UnregisterNodeResponse("");
  }

  /** No longer live: the journal says why, and what it ran is gone, its applications told. */
  private void deactivate(SchedNode node, NodeState state, String why) {
    node.state = state;
    node.awaitingResync = false;
    node.decommissionUntil = 0;
    acts.write(new Write.MarkNode(node.id(), state, why));
    for (String id : List.copyOf(node.containers)) {
      lifecycles.complete(id, ExitStatus.ABORTED, "Container released on a *lost* node");
    }
  }
}
