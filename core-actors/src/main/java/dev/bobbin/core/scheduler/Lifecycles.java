package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import java.time.Instant;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How applications, attempts and containers come and go in the model, and their expiries: an AM
 * that stops calling, an allocation never started, an AM container left running after its AM
 * unregistered.
 */
final class Lifecycles {
  private static final Logger log = LoggerFactory.getLogger(Lifecycles.class);

  private final SchedulerModel model;
  private final PolicySet policy;
  private final SchedulerDeps deps;
  private final Acts acts;

  Lifecycles(SchedulerModel model, PolicySet policy, SchedulerDeps deps, Acts acts) {
    this.model = model;
    this.policy = policy;
    this.deps = deps;
    this.acts = acts;
  }

  // Applications and attempts

  void attemptAdded(SchedulerProtocol.AttemptAdded m) {
    SchedApp app = model.app(m.appId());
    if (app == null) {
      QueuePath queue = QueuePath.of(m.queue());
      app = model.follow(m.appId(), queue, m.user(), m.priority(), m.submitTime(),
          policy.amContainer(m.amResource(), queue), m.amLaunch(), m.keepContainers());
      app.unmanagedAm = m.unmanagedAm();
      policy.follow(m.appId(), app.queue);
    } else if (m.attemptId().equals(app.attemptId)) {
      return;
    }
    model.startAttempt(app, m.attemptId());
    // As YARN's unmanaged attempt, launched at once: its AM's liveness is watched from now on.
    if (app.unmanagedAm) model.heardFromAm(app, deps.clock().millis());
    log.info("Attempt {} of {} added to queue {}", m.attemptId(), m.appId(), m.queue());
    acts.scheduleSoon();
  }

  /**
   * The attempt's containers are killed, unless its application keeps containers across attempts:
   * then its running workers stay for the next attempt, as YARN's do, and only its AM container and
   * the allocations it never started are taken back (its asks went with it).
   */
  void attemptEnded(SchedulerProtocol.AttemptEnded m) {
    model.endAttempt(m.attemptId());
    SchedApp app = model.app(m.appId());
    String diagnostics = "Container of a failed attempt " + m.attemptId();
    if (app == null || !app.keepContainers) {
      releaseAll(m.appId(), c -> c.allocation.attemptId().equals(m.attemptId()), diagnostics);
      return;
    }
    int kept = 0;
    for (SchedContainer c : model.liveContainersOf(m.appId())) {
      if (!c.allocation.attemptId().equals(m.attemptId())) continue;
      if (!c.allocation.am() && c.phase == SchedContainer.Phase.RUNNING) {
        app.kept.add(c.id());
        kept++;
      } else {
        release(c, diagnostics);
      }
    }
    log.info("Attempt {} ended: {} running containers kept for the next attempt", m.attemptId(), kept);
  }

  void appEnded(SchedulerProtocol.AppEnded m) {
    model.removeApp(m.appId());
    policy.forget(m.appId());
    SchedContainer am = m.state() == AppState.FINISHED ? model.runningAmContainer(m.appId()) : null;
    releaseAll(m.appId(), c -> c != am, "Container of a completed application");
    if (am == null) {
      model.cleanup().cleanUpOnNodes(m.appId());
      log.info("Application {} ended as {}; its containers are being cleaned up", m.appId(), m.state());
      return;
    }
    model.cleanup().leaveAmToExit(am.id(), m.appId(), deps.clock().millis() + deps.amExpiry().toMillis());
    log.info("Application {} ended as {}; its other containers are being cleaned up, its AM container {} is left "
        + "to exit", m.appId(), m.state(), am.id());
  }

  /** From the next pass on, the application is ordered by its new priority. */
  void priorityChanged(SchedulerProtocol.PriorityChanged m) {
    SchedApp app = model.app(m.appId());
    if (app == null || app.priority == m.priority()) return;
    app.priority = m.priority();
    log.info("Application {} now runs at priority {}", m.appId(), m.priority());
    acts.scheduleSoon();
  }

  /** YARN's lifetime monitor follows the application's new deadline. */
  void lifetimeChanged(SchedulerProtocol.LifetimeChanged m) {
    SchedApp app = model.app(m.appId());
    if (app == null || app.lifetimeDeadline == m.deadline()) return;
    app.lifetimeDeadline = m.deadline();
    app.lifetimeReportedAt = 0;
    log.info("Application {} may run until {}", m.appId(), Instant.ofEpochMilli(m.deadline()));
  }

  /**
   * From the next pass on, the application's usage, asks and AM count in its new leaf's accounts;
   * the policy keeps what it knows of the application (a capacity activation, a fair reservation).
   */
  void queueMoved(SchedulerProtocol.QueueMoved m) {
    SchedApp app = model.app(m.appId());
    QueuePath to = QueuePath.of(m.queue());
    if (app == null || app.queue.equals(to)) return;
    QueuePath from = app.queue;
    app.queue = to;
    policy.follow(m.appId(), to);
    log.info("Application {} moved from queue {} to {}", m.appId(), from, to);
    acts.scheduleSoon();
  }

  /** Kills every live container of the application that matches; never-launched ones complete at once. */
  private void releaseAll(String appId, Predicate<SchedContainer> which, String diagnostics) {
    for (SchedContainer c : model.liveContainersOf(appId)) {
      if (which.test(c)) release(c, diagnostics);
    }
  }

  // Containers

  /** A running container is killed on its node; one never started completes at once. */
  void release(SchedContainer c, String diagnostics) {
    SchedNode node = model.node(c.allocation.nodeId());
    switch (c.phase) {
      case RUNNING -> {
        if (node != null) node.toKill.add(c.id());
      }
      case ALLOCATED -> {
        // It may be starting right now: its space stays taken until the NM has heard the kill.
        if (node != null && node.containers.contains(c.id())) node.hold(c.id(), c.allocation.resource());
        complete(c.id(), ExitStatus.ABORTED, diagnostics);
      }
      default -> { }
    }
  }

  /** The container has ended: its space is free now, and its completion is written before anyone hears of it. */
  void complete(String containerId, int exitStatus, String diagnostics) {
    SchedContainer c = model.container(containerId);
    if (c == null) return;
    model.startCompletion(c);
    PreemptionRecord preempted = model.preempting().of(containerId);
    if (preempted != null) {
      // YARN reports a preempted container as PREEMPTED whatever signal ended the process.
      exitStatus = ExitStatus.PREEMPTED;
      diagnostics = "Container preempted by scheduler: " + preempted.reason();
    }
    acts.complete(containerId, ContainerStatus.completed(containerId, exitStatus, diagnostics, c.allocation.resource()));
  }

  void completionDone(SchedulerProtocol.CompletionDone m) {
    SchedContainer c = model.container(m.containerId());
    if (c == null) return;
    if (m.error() != null) {
      log.warn("Completion of {} not persisted yet, writing it again: {}", m.containerId(), m.error());
      return;
    }
    model.completionDurable(c, m.status());
    log.info("Container {} of {} completed with exit status {}", m.containerId(), c.allocation.appId(),
        m.status().exitStatus());
    if (c.allocation.am()) {
      acts.write(new Write.ReportAmFinished(c.allocation.appId(), c.allocation.attemptId(), m.status().exitStatus(),
          m.status().diagnostics()));
    }
  }

  /** A completion still waiting for its write is written again. */
  void retryCompletion(SchedulerProtocol.RetryCompletion m) {
    if (model.container(m.containerId()) != null) acts.complete(m.containerId(), m.status());
  }

  // Expiries

  /**
   * YARN's AM liveness monitor: an attempt whose AM has been silent for the expiry fails, which
   * kills its containers and starts the next attempt if any are left.
   */
  void expireAms() {
    long now = deps.clock().millis();
    for (SchedApp app : model.amsSilentSince(now - deps.amExpiry().toMillis())) {
      // Said again if the attempt has not ended an ask timeout later (the entity may have been moving).
      if (app.amExpiryReportedAt != 0 && now - app.amExpiryReportedAt < deps.askTimeout().toMillis()) continue;
      app.amExpiryReportedAt = now;
      String diagnostics = "ApplicationMaster for attempt " + app.attemptId + " timed out";
      log.warn("{}: no register or allocate call for {}", diagnostics, deps.amExpiry());
      acts.write(new Write.ReportAmFinished(app.appId, app.attemptId, ExitStatus.INVALID, diagnostics));
    }
  }

  /**
   * YARN's {@code RMAppLifetimeMonitor}: an application past its lifetime is killed. The entity
   * checks the deadline it journalled; the request is repeated an ask timeout later until it ends.
   */
  void expireLifetimes() {
    long now = deps.clock().millis();
    for (SchedApp app : model.apps()) {
      if (app.lifetimeDeadline <= 0 || app.lifetimeDeadline > now) continue;
      if (app.lifetimeReportedAt != 0 && now - app.lifetimeReportedAt < deps.askTimeout().toMillis()) continue;
      app.lifetimeReportedAt = now;
      log.info("Application {} has exceeded its lifetime, which ended at {}; killing it", app.appId,
          Instant.ofEpochMilli(app.lifetimeDeadline));
      acts.write(new Write.ExpireLifetime(app.appId));
    }
  }

  /**
   * A container handed out but never started within the token's lifetime is taken back, as YARN's
   * allocation expirer does ({@code yarn.resourcemanager.rm.container-allocation.expiry-interval-ms}).
   * The allocation time comes from the journal, so the clock survives a failover.
   */
  void expireAllocations() {
    long cutoff = deps.clock().millis() - deps.containerTokenLifetime().toMillis();
    for (SchedContainer c : model.unstartedBefore(cutoff)) {
      log.info("Allocation of {} expired: never started", c.id());
      release(c, "Container expired since it was unused");
    }
  }

  /** An AM container left to exit after its AM unregistered is killed once it has had the AM expiry interval. */
  void expireAmsLeftToExit() {
    for (SchedContainer c : model.cleanup().amsOverdue(deps.clock().millis())) {
      log.warn("AM container {} of {} still runs {} after its AM unregistered; killing it", c.id(),
          c.allocation.appId(), deps.amExpiry());
      release(c, "AM container still running " + deps.amExpiry() + " after its ApplicationMaster unregistered");
    }
  }
}
