package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeState;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new scheduler's first phase. Its model is rebuilt from the journal, counting every live
 * container against its node at once so that nothing is handed out twice; then it allocates
 * nothing until enough of the known nodes have re-synced or the recovery wait is over. At its end,
 * containers no NodeManager reported are gone, and an AM container that never started is launched.
 */
final class Recovery {
  private static final Logger log = LoggerFactory.getLogger(Recovery.class);

  private final SchedulerModel model;
  private final long until;
  /** The live nodes the journal knows: only they are waited for, not the dead ones it keeps listing. */
  private final int awaited;
  private final int nodesToResync;

  /** Waits from {@code now}; with no live node known there is nothing to wait for. */
  Recovery(SchedulerModel model, long now, SchedulerDeps deps) {
    this.model = model;
    this.awaited = (int) model.nodes().stream().filter(n -> n.awaitingResync).count();
    this.nodesToResync = (int) Math.ceil(awaited * deps.recoveryMinNodeShare());
    this.until = awaited == 0 ? now : now + deps.recoveryWait().toMillis();
  }

  boolean isOver(long now) {
    return now >= until || resynced() >= nodesToResync;
  }

  private long resynced() {
    return awaited - model.nodes().stream().filter(n -> n.awaitingResync).count();
  }

  /**
   * Rebuilds the model from the journal: live applications with their current attempt, their live
   * containers, and the nodes, which must re-register. Containers of ended applications are cleaned
   * up once their NMs report.
   *
   * @return AM containers the previous scheduler allocated but whose application never recorded
   *     them: they are the attempts' AMs all the same, and the scheduler records them now
   */
  static List<ContainerEntity.Allocation> rebuild(SchedulerModel model, PolicySet policy, RecoveredModel journal,
      long now, long amExpiryMillis) {
    journal.nodes().forEach((id, n) -> {
      if (n.registration() != null) model.putNode(recovered(n, now));
    });
    journal.apps().forEach((id, a) -> {
      if (!a.exists() || a.state().isFinal() || a.currentAttempt() == null || a.currentAttempt().state().isFinal()) {
        return;
      }
      var sub = a.submission();
      SchedApp app = model.follow(id, QueuePath.of(sub.queue()), sub.user(), sub.priority(), a.startedTime(),
          policy.amContainer(sub.amResource(), QueuePath.of(sub.queue())), sub.amLaunch(), sub.keepContainers());
      app.unmanagedAm = sub.unmanagedAm();
      model.startAttempt(app, a.currentAttempt().attemptId());
      policy.follow(id, app.queue);
      app.lifetimeDeadline = a.lifetimeDeadline();
      if (!a.currentAttempt().amContainerId().isEmpty() || app.unmanagedAm) {
        app.clearAsks();
        // The AM's liveness window starts afresh with this scheduler, as after a YARN RM restart.
        model.heardFromAm(app, now);
      }
    });
    List<ContainerEntity.Allocation> unrecordedAms = new ArrayList<>();
    journal.containers().forEach((id, c) -> {
      if (c.allocation() == null) return;
      ContainerEntity.Allocation a = c.allocation();
      if (c.phase() == ContainerEntity.Phase.COMPLETED) {
        // Finished while no AM heard of it (say, during the outage): deliver it again; AMs ignore repeats.
        // One of an earlier attempt that ran goes to the current attempt if containers are kept.
        SchedApp owner = model.app(a.appId());
        if (owner != null && !c.completionDelivered() && !a.am()
            && (a.attemptId().equals(owner.attemptId) || owner.keepContainers && c.startedTime() != 0)) {
          owner.completed(a, ContainerStatus.completed(id, c.exitStatus(), c.diagnostics(), a.resource()));
        }
        return;
      }
      SchedNode node = model.node(a.nodeId());
      if (node == null || !node.awaitingResync) return;
      SchedContainer sc = new SchedContainer(a, c.allocatedTime());
      sc.phase = c.phase() == ContainerEntity.Phase.RUNNING ? SchedContainer.Phase.RUNNING
          : SchedContainer.Phase.ALLOCATED;
      sc.confirmed = false;
      model.countOn(node, sc);
      SchedApp app = model.appOfAttempt(a.attemptId());
      ApplicationEntity.State owner = journal.apps().get(a.appId());
      SchedApp keeper = model.app(a.appId());
      if (app != null) {
        app.add(sc);
      } else if (keeper != null && keeper.keepContainers && !a.am() && sc.phase == SchedContainer.Phase.RUNNING) {
        // A worker an earlier attempt left running: the current attempt has it.
        keeper.add(sc);
        keeper.kept.add(id);
      } else if (a.am() && owner != null && owner.state() == AppState.FINISHED) {
        model.cleanup().leaveAmToExit(id, a.appId(), now + amExpiryMillis);
      } else {
        node.toKill.add(id);
      }
      if (app != null && a.am() && app.hasDemand()) {
        // The previous scheduler allocated this AM container but died before its application
        // recorded it: it is the attempt's AM all the same, not a reason to place a second one.
        app.clearAsks();
        model.heardFromAm(app, now);
        unrecordedAms.add(a);
      }
      if (c.preemption() != null) model.preempting().resume(c.preemption());
    });
    for (String appId : model.cleanup().endedAppsWithNodes()) {
      ApplicationEntity.State a = journal.apps().get(appId);
      // An application that ended with no AM container left to exit is cleaned up now, on the nodes
      // its containers are on. One between attempts keeps its nodes for its next attempt's end.
      if (a == null || !a.exists()) model.cleanup().forgetNodesOf(appId);
      else if (a.state().isFinal()) model.cleanup().cleanUpOnNodes(appId);
    }
    return unrecordedAms;
  }

  /**
   * A journalled node as the model holds it. A live one (RUNNING, UNHEALTHY, DECOMMISSIONING) must
   * re-register; an UNHEALTHY one takes no containers until a heartbeat reports it healthy, and a
   * DECOMMISSIONING one goes on to the timeout it was given. A dead one (LOST, DECOMMISSIONED,
   * SHUTDOWN) is listed and counted in its state, with the reason and time it got there, and is not
   * waited for: it has no containers left, and comes back only by registering again.
   */
  static SchedNode recovered(NodeEntity.State n, long now) {
    SchedNode node = new SchedNode(n.registration(), now);
    node.state = n.state();
    if (node.state.isAnswered()) {
      node.awaitingResync = true;
      node.decommissionUntil = node.state == NodeState.DECOMMISSIONING ? n.until() : 0;
    } else {
      node.lastHeartbeat = n.stateTime() > 0 ? n.stateTime() : n.registeredTime();
    }
    if (node.state == NodeState.UNHEALTHY || !node.state.isAnswered()) {
      // What made it so stands in for the health report its NodeManager last sent.
      node.healthReport = n.reason();
      if (n.stateTime() > 0) node.lastHealthUpdate = n.stateTime();
    }
    return node;
  }

  /**
   * Containers no NodeManager has reported by now are gone: their AMs hear they were aborted. An AM
   * container that was allocated but never started is started now instead: its attempt goes on.
   */
  void finish(Lifecycles lifecycles, Acts acts, long now) {
    int lost = 0;
    int relaunched = 0;
    for (SchedContainer c : List.copyOf(model.containers())) {
      if (c.confirmed) continue;
      if (relaunchAm(c, acts, now)) {
        relaunched++;
        continue;
      }
      lost++;
      // Never reported, but its AM may still start it: its space stays taken until the NM heard the kill.
      SchedNode node = model.node(c.allocation.nodeId());
      if (c.phase == SchedContainer.Phase.ALLOCATED && node != null) node.hold(c.id(), c.allocation.resource());
      lifecycles.complete(c.id(), ExitStatus.ABORTED, "Container lost while the ResourceManager recovered");
    }
    log.info("Scheduler recovery finished: {} of {} live nodes re-synced, {} containers lost, {} AM containers "
        + "relaunched", resynced(), awaited, lost, relaunched);
  }

  /**
   * Launches again an AM container the previous scheduler allocated but whose launch never reached
   * its NodeManager (that member died in between). Only once that node has re-synced without it:
   * it then follows this scheduler's epoch, so a launch the old member still had under way is
   * refused by the token check and the container cannot start twice.
   */
  private boolean relaunchAm(SchedContainer c, Acts acts, long now) {
    ContainerEntity.Allocation a = c.allocation;
    SchedNode node = model.node(a.nodeId());
    SchedApp app = model.appOfAttempt(a.attemptId());
    if (!a.am() || c.phase != SchedContainer.Phase.ALLOCATED || node == null || node.awaitingResync
        || app == null || app.registered || app.amLaunch == null) {
      return false;
    }
    c.confirmed = true;
    model.heardFromAm(app, now);
    log.info("AM container {} of {} was never started: launching it again", a.containerId(), a.attemptId());
    acts.launchAm(a, app);
    return true;
  }
}
