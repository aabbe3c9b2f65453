package dev.bobbin.core.scheduler;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Taking nodes out of service, as YARN's NodesListManager and DecommissioningNodesWatcher: at once
 * (DECOMMISSIONED, its containers killed), or gracefully (DECOMMISSIONING: it takes no new containers,
 * those it runs go on, and it is DECOMMISSIONED once it runs none or at its timeout, when what is
 * left is killed). A recommission puts a decommissioning node back in service. Every change is
 * journalled, a graceful timeout with it, so a recovered scheduler keeps it.
 */
final class Decommissions {
  private static final Logger log = LoggerFactory.getLogger(Decommissions.class);

  private final SchedulerModel model;
  private final Lifecycles lifecycles;
  private final SchedulerDeps deps;
  private final Acts acts;

  Decommissions(SchedulerModel model, Lifecycles lifecycles, SchedulerDeps deps, Acts acts) {
    this.model = model;
    this.lifecycles = lifecycles;
    this.deps = deps;
    this.acts = acts;
  }

  /**
   * After the host lists were read again: every in-service node whose host they refuse is
   * decommissioned (gracefully when {@code gracefulMillis >= 0}), and a decommissioning node whose
   * host they allow again is recommissioned.
   *
   * @param included the hosts that may register; null when every host may
   * @return the nodes decommissioned or now decommissioning
   */
  List<String> refresh(Set<String> included, Set<String> excluded, long gracefulMillis) {
    List<String> out = new ArrayList<>();
    for (SchedNode node : model.nodes()) {
      String host = node.registration.host().toLowerCase(Locale.ROOT);
      boolean refused = (included != null && !included.contains(host)) || excluded.contains(host);
      if (!refused) {
        if (node.state == NodeState.DECOMMISSIONING) recommission(node);
        continue;
      }
      if (!node.state.isAnswered() && !node.awaitingResync) continue;
      if (gracefulMillis < 0) {
        decommission(node, "its host is no longer allowed by the node lists");
        out.add(node.id());
      } else if (node.state != NodeState.DECOMMISSIONING) {
        startGraceful(node, gracefulMillis);
        out.add(node.id());
      }
    }
    return out;
  }

  /** {@code PUT /ws/v1/cluster/nodes/{id}/state}: DECOMMISSIONING, DECOMMISSIONED or RUNNING. */
  StatusReply<String> setState(String nodeId, NodeState target, long gracefulMillis) {
    SchedNode node = model.node(nodeId);
    if (node == null) return StatusReply.error("nodeId, " + nodeId + ", is not found");
    boolean live = node.state.isAnswered() || node.awaitingResync;
    switch (target) {
      case DECOMMISSIONING -> {
        if (!live) return StatusReply.error("Node " + nodeId + " is " + node.state + "; only a live node can be decommissioned");
        startGraceful(node, gracefulMillis);
      }
      case DECOMMISSIONED -> {
        if (!live) return StatusReply.error("Node " + nodeId + " is " + node.state + "; only a live node can be decommissioned");
        decommission(node, "decommissioned by an administrator");
      }
      case RUNNING -> {
        if (node.state == NodeState.DECOMMISSIONING) {
          recommission(node);
        } else if (node.state != NodeState.RUNNING) {
          return StatusReply.error("Node " + nodeId + " is " + node.state + "; only a DECOMMISSIONING node can be"
              + " recommissioned");
        }
      }
      default -> {
        return StatusReply.error("Invalid node state " + target + "; expected RUNNING, DECOMMISSIONING or DECOMMISSIONED");
      }
    }
    return StatusReply.success(node.state.name());
  }

  /**
   * With every tick: a decommissioning node whose timeout passed, or that runs nothing by its own
   * report, is DECOMMISSIONED. As YARN judges a node ready on its status updates, one that has not
   * reported since its decommission began is not taken to run nothing.
   */
  void follow() {
    long now = deps.clock().millis();
    for (SchedNode node : model.nodes()) {
      if (node.state != NodeState.DECOMMISSIONING) continue;
      if (node.containers.isEmpty() && node.held.isEmpty() && node.lastHeartbeat >= node.decommissionSince) {
        log.info("Node {} runs no more containers: its graceful decommission is complete", node.id());
        decommission(node, "graceful decommission complete");
      } else if (now >= node.decommissionUntil) {
        decommission(node, "its graceful decommission timed out at " + Instant.ofEpochMilli(node.decommissionUntil));
      }
    }
  }

  private void startGraceful(SchedNode node, long gracefulMillis) {
    node.state = NodeState.DECOMMISSIONING;
    node.decommissionSince = deps.clock().millis();
    node.decommissionUntil = node.decommissionSince + gracefulMillis;
    String reason = "graceful decommission, timeout " + Duration.ofMillis(gracefulMillis).toSeconds() + " s";
    log.info("Node {} decommissioning: it takes no new containers; {}", node.id(), reason);
    acts.write(new Write.MarkNode(node.id(), NodeState.DECOMMISSIONING, reason, node.decommissionUntil));
  }

  private void recommission(SchedNode node) {
    node.state = NodeState.RUNNING;
    node.decommissionUntil = 0;
    node.decommissionSince = 0;
    log.info("Node {} recommissioned: it takes new containers again", node.id());
    acts.write(new Write.MarkNode(node.id(), NodeState.RUNNING, "recommissioned"));
    acts.scheduleSoon();
  }

  /**
   * DECOMMISSIONED, in the journal too: what it still runs is killed with a diagnostic naming the
   * decommission, and its next heartbeat tells it to shut down.
   */
  private void decommission(SchedNode node, String why) {
    node.state = NodeState.DECOMMISSIONED;
    node.awaitingResync = false;
    node.decommissionUntil = 0;
    log.info("Node {} decommissioned: {}", node.id(), why);
    acts.write(new Write.MarkNode(node.id(), NodeState.DECOMMISSIONED, why));
    for (String id : List.copyOf(node.containers)) {
      lifecycles.complete(id, ExitStatus.ABORTED, "Container released on a *decommissioned* node " + node.id()
          + ": " + why);
    }
  }
}
