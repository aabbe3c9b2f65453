package dev.bobbin.core.scheduler;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.core.Retrying;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.core.policy.fair.AppSnapshot;
import dev.bobbin.core.policy.fair.PreemptionDecision;
import dev.bobbin.core.policy.fair.PreemptionPlan;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler of one partition (a cluster singleton). It keeps an in-memory model of nodes,
 * applications' outstanding asks and containers, asks the policy for placements, and makes each
 * placement durable in its Container entity before the AM sees it. Placements in flight count as
 * used, so a node is never over-committed while writes are pending.
 */
public final class Scheduler extends AbstractBehavior<Scheduler.Command> {
  /** For callbacks off the actor's thread, where the context's logger must not be used. */
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
  /** Long enough to outlast a failover of the member that runs the entity. */
  private static final Duration WITHDRAW_WITHIN = Duration.ofSeconds(60);

  public sealed interface Command extends CborSerializable {}

  // From entities, after their events are durable.
  public record AttemptAdded(
      String appId, String attemptId, String queue, String user, int priority, Resource amResource,
      ContainerLaunchContext amLaunch, long submitTime) implements Command {}

  public record AttemptEnded(String appId, String attemptId) implements Command {}

  public record AppEnded(String appId, AppState state) implements Command {}

  // From the NM and AM protocol routes.
  /**
   * Answered with the scheduler's epoch, which the NodeManager uses for fencing.
   *
   * @param runningApplications the applications the node holds containers of, live or finished, and
   *     has not been told to clean up
   */
  public record NodeRegistered(NodeEntity.Registration registration, List<ContainerStatus> containers,
      List<String> runningApplications, ActorRef<Long> replyTo) implements Command {}

  public record NodeHeartbeat(NodeHeartbeatRequest request, ActorRef<NodeHeartbeatResponse> replyTo)
      implements Command {}

  public record AmRegistered(String attemptId, ActorRef<AmOutcome<RegisterAmResponse>> replyTo)
      implements Command {}

  public record Allocate(String attemptId, AllocateRequest request, ActorRef<AmOutcome<AllocateResponse>> replyTo)
      implements Command {}

  /** A reply to an AM call: a response, or YARN's exception name and message. */
  public record AmOutcome<T>(
      // The concrete type travels with the value: the reply may cross to another member.
      @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS) T response, String exception, String message)
      implements CborSerializable {
    static <T> AmOutcome<T> ok(T response) {
      return new AmOutcome<>(response, null, null);
    }

    static <T> AmOutcome<T> error(String exception, String message) {
      return new AmOutcome<>(null, exception, message);
    }
  }

  // Read-only views.
  public record GetNodes(ActorRef<NodesReport> replyTo) implements Command {}

  public record NodeReport(
      String nodeId, String host, String httpAddress, String rack, NodeState state, Resource capacity,
      Resource used, int numContainers, long lastHeartbeat, String healthReport) implements CborSerializable {}

  public record NodesReport(List<NodeReport> nodes) implements CborSerializable {}

  public record GetUsage(ActorRef<UsageReport> replyTo) implements Command {}

  public record AppUsage(Resource allocated, int runningContainers, float progress) implements CborSerializable {}

  public record UsageReport(Map<String, AppUsage> apps, Resource clusterCapacity, Resource clusterUsed,
      int activeNodes, int lostNodes, long containersAllocated) implements CborSerializable {}

  /** Where a submission goes: the queue (without {@code root.}) or why it is refused. */
  public record PlaceApp(String requestedQueue, String user, ActorRef<QueueDecision> replyTo) implements Command {}

  public record QueueDecision(String queue, String rejection) implements CborSerializable {}

  /** Answered once the scheduler has read its model from the journal (at once after that). */
  public record WhenRecovered(ActorRef<Done> replyTo) implements Command {}

  /** Reads the Fair configuration again and swaps it in; an invalid one is refused and changes nothing. */
  public record RefreshQueues(ActorRef<StatusReply<String>> replyTo) implements Command {}

  /** The Fair policy's latest shares; an error under FIFO. */
  public record GetFairView(ActorRef<StatusReply<FairView>> replyTo) implements Command {}

  // Internal.
  record Tick() implements Command {}

  /** One scheduling pass for everything that arrived before it. */
  record Wave() implements Command {}

  record FairUpdate() implements Command {}

  record EpochLoaded(EpochEntity.Started started) implements Command {}

  record Recovered(EpochEntity.Started started, RecoveredModel model, String error) implements Command {}

  /** {@code answered}: the entity replied (a refusal wrote nothing); otherwise the write's fate is unknown. */
  record AllocationDone(String containerId, String error, boolean answered) implements Command {}

  record CompletionDone(String containerId, ContainerStatus status, String error) implements Command {}

  /** The Container entity's answer about a container an NM runs and the model lacks; error if it did not answer. */
  record AdoptionChecked(String nodeId, String containerId, ContainerEntity.Report report, String error)
      implements Command {}

  /** The application's answer for a node that reported it; {@code ended} null if it did not answer. */
  record ReportedAppLookedUp(String nodeId, String appId, Boolean ended) implements Command {}

  public record AmLaunchFailed(String containerId, String diagnostics) implements Command {}

  public static Behavior<Command> create(SchedulerDeps deps) {
    return Behaviors.withStash(10_000, stash -> Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<EpochEntity.Command> epochs = ctx.spawn(EpochEntity.create("default"), "epoch");
      epochs.tell(new EpochEntity.Next(ctx.messageAdapter(EpochEntity.Started.class, EpochLoaded::new)));
      return Behaviors.receive(Command.class)
          .onMessage(EpochLoaded.class, m -> {
            ctx.pipeToSelf(deps.recovery().get(), (model, err) ->
                new Recovered(m.started(), model, err == null ? null : err.toString()));
            return Behaviors.same();
          })
          .onMessage(Recovered.class, m -> {
            if (m.error() != null) throw new IllegalStateException("Scheduler recovery failed: " + m.error());
            ctx.getLog().info("Scheduler starting with epoch {}: {} applications, {} containers, {} nodes in the journal",
                m.started().epoch(), m.model().apps().size(), m.model().containers().size(), m.model().nodes().size());
            timers.startTimerWithFixedDelay(new Tick(), deps.settings().allocationInterval());
            if (deps.isFair()) {
              timers.startTimerWithFixedDelay(new FairUpdate(), deps.fair().global().updateInterval());
            }
            return stash.unstashAll(new Scheduler(ctx, deps, m.started(), m.model(), epochs));
          })
          .onAnyMessage(m -> {
            stash.stash(m);
            return Behaviors.same();
          })
          .build();
    })));
  }

  private final SchedulerDeps deps;
  private final AmProtocol amProtocol;
  private final long epoch;
  private final SchedulerModel model = new SchedulerModel();
  private boolean waveQueued;
  /** Allocations sent to their Container entity and not yet answered. */
  private int allocationsInFlight;
  /** A pass stopped at the in-flight limit: the next answer asks for another wave. */
  private boolean throttled;
  private final FairScheduling fair;
  private long containersAllocated;
  /** Until then (or until enough nodes re-synced) a recovered scheduler allocates nothing. */
  private long recoveringUntil;
  private int nodesToResync;

  private final ActorRef<EpochEntity.Command> schedulerJournal;

  private Scheduler(ActorContext<Command> ctx, SchedulerDeps deps, EpochEntity.Started started, RecoveredModel recovered,
      ActorRef<EpochEntity.Command> schedulerJournal) {
    super(ctx);
    this.deps = deps;
    this.amProtocol = new AmProtocol(model, AllocationLimits.of(deps.settings()));
    this.epoch = started.epoch();
    this.schedulerJournal = schedulerJournal;
    this.fair = deps.isFair() ? new FairScheduling(deps.fair()) : null;
    if (fair != null) fair.restoreClocks(started.clocks());
    recover(recovered);
  }

  // Recovery

  /**
   * Rebuilds the model from the journal ({@link SchedulerModel#recover}). Nothing is allocated
   * until enough nodes have re-synced or the recovery wait is over.
   */
  private void recover(RecoveredModel recovered) {
    long now = deps.clock().millis();
    for (ContainerEntity.Allocation a : model.recover(recovered, now, deps.amExpiry().toMillis(), fair)) {
      deps.applications().apply(a.appId()).tell(new ApplicationEntity.AssignAmContainer(a.attemptId(),
          a.containerId(), a.nodeId(), a.nodeHttpAddress(), getContext().getSystem().ignoreRef()));
    }
    nodesToResync = (int) Math.ceil(model.nodes.size() * deps.recoveryMinNodeShare());
    recoveringUntil = model.nodes.isEmpty() ? now : now + deps.recoveryWait().toMillis();
  }

  private boolean recovering() {
    if (recoveringUntil == 0) return false;
    long resynced = model.nodes.values().stream().filter(n -> !n.awaitingResync).count();
    if (deps.clock().millis() < recoveringUntil && resynced < nodesToResync) return true;
    recoveringUntil = 0;
    finishRecovery();
    return false;
  }

  /**
   * Containers no NodeManager has reported by now are gone: their AMs hear they were aborted. An AM
   * container that was allocated but never started is started now instead: its attempt goes on.
   */
  private void finishRecovery() {
    int lost = 0;
    int relaunched = 0;
    for (SchedContainer c : List.copyOf(model.containers.values())) {
      if (c.confirmed) continue;
      if (relaunchAm(c)) {
        relaunched++;
        continue;
      }
      lost++;
      // Never reported, but its AM may still start it: its space stays taken until the NM heard the kill.
      SchedNode node = model.nodes.get(c.allocation.nodeId());
      if (c.phase == SchedContainer.Phase.ALLOCATED && node != null) node.hold(c.id(), c.allocation.resource());
      completeContainer(c.id(), ExitStatus.ABORTED, "Container lost while the ResourceManager recovered", null);
    }
    getContext().getLog().info(
        "Scheduler recovery finished: {} of {} known nodes re-synced, {} containers lost, {} AM containers relaunched",
        model.nodes.values().stream().filter(n -> !n.awaitingResync).count(), model.nodes.size(), lost, relaunched);
  }

  /**
   * Launches again an AM container the previous scheduler allocated but whose launch never reached
   * its NodeManager (that member died in between). Only once that node has re-synced without it:
   * it then follows this scheduler's epoch, so a launch the old member still had under way is
   * refused by the token check and the container cannot start twice.
   */
  private boolean relaunchAm(SchedContainer c) {
    ContainerEntity.Allocation a = c.allocation;
    SchedNode node = model.nodes.get(a.nodeId());
    SchedApp app = model.appsByAttempt.get(a.attemptId());
    if (!a.am() || c.phase != SchedContainer.Phase.ALLOCATED || node == null || node.awaitingResync
        || app == null || app.registered || app.amLaunch == null) {
      return false;
    }
    c.confirmed = true;
    model.heardFromAm(app, deps.clock().millis());
    getContext().getLog().info("AM container {} of {} was never started: launching it again", a.containerId(),
        a.attemptId());
    launchAm(a, app);
    return true;
  }

  private void launchAm(ContainerEntity.Allocation a, SchedApp app) {
    String amToken = Tokens.amToken(new Tokens.AmTokenIdentifier(a.attemptId(), app.user), deps.tokenSecret());
    deps.amLauncher().tell(new AmLauncher.Launch(a.appId(), a.attemptId(), app.user, toWire(a, app.user),
        app.amLaunch, amToken, getContext().getSelf()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(AttemptAdded.class, this::onAttemptAdded)
        .onMessage(AttemptEnded.class, this::onAttemptEnded)
        .onMessage(AppEnded.class, this::onAppEnded)
        .onMessage(NodeRegistered.class, this::onNodeRegistered)
        .onMessage(NodeHeartbeat.class, this::onNodeHeartbeat)
        .onMessage(AmRegistered.class, this::onAmRegistered)
        .onMessage(Allocate.class, this::onAllocate)
        .onMessage(GetNodes.class, this::onGetNodes)
        .onMessage(GetUsage.class, this::onGetUsage)
        .onMessage(Tick.class, m -> {
          expireNodes();
          expireAllocations();
          expireAms();
          expireFinishing();
          schedule();
          amProtocol.refreshHeadroom();
          return this;
        })
        .onMessage(AllocationDone.class, this::onAllocationDone)
        .onMessage(CompletionDone.class, this::onCompletionDone)
        .onMessage(AdoptionChecked.class, this::onAdoptionChecked)
        .onMessage(ReportedAppLookedUp.class, this::onReportedAppLookedUp)
        .onMessage(Wave.class, m -> {
          waveQueued = false;
          schedule();
          return this;
        })
        .onMessage(AmLaunchFailed.class, m -> {
          completeContainer(m.containerId(), ExitStatus.INVALID, m.diagnostics(), null);
          return this;
        })
        .onMessage(EpochLoaded.class, m -> this)
        .onMessage(PlaceApp.class, this::onPlaceApp)
        .onMessage(WhenRecovered.class, m -> {
          m.replyTo().tell(Done.getInstance());
          return this;
        })
        .onMessage(RefreshQueues.class, this::onRefreshQueues)
        .onMessage(GetFairView.class, this::onGetFairView)
        .onMessage(FairUpdate.class, m -> { fairUpdate(); return this; })
        .build();
  }

  // Applications

  private Behavior<Command> onAttemptAdded(AttemptAdded m) {
    SchedApp app = model.apps.get(m.appId());
    if (app == null) {
      app = new SchedApp(model.waiting, m.appId(), m.queue(), m.user(), m.priority(), m.submitTime(), m.amResource(),
          m.amLaunch());
      model.apps.put(m.appId(), app);
    } else if (m.attemptId().equals(app.attemptId)) {
      return this;
    }
    if (app.attemptId != null) model.appsByAttempt.remove(app.attemptId);
    app.startAttempt(m.attemptId());
    model.appsByAttempt.put(m.attemptId(), app);
    getContext().getLog().info("Attempt {} of {} added to queue {}", m.attemptId(), m.appId(), m.queue());
    scheduleSoon();
    return this;
  }

  private Behavior<Command> onAttemptEnded(AttemptEnded m) {
    model.appsByAttempt.remove(m.attemptId());
    releaseAll(m.appId(), c -> c.allocation.attemptId().equals(m.attemptId()),
        "Container of a failed attempt " + m.attemptId());
    return this;
  }

  private Behavior<Command> onAppEnded(AppEnded m) {
    SchedApp app = model.removeApp(m.appId());
    if (app != null) app.leave();
    if (app != null && app.attemptId != null) model.appsByAttempt.remove(app.attemptId);
    if (fair != null) fair.appEnded(m.appId());
    SchedContainer am = m.state() == AppState.FINISHED ? model.runningAmContainer(m.appId()) : null;
    releaseAll(m.appId(), c -> c != am, "Container of a completed application");
    if (am == null) {
      model.cleanUpOnNodes(m.appId());
      getContext().getLog().info("Application {} ended as {}; its containers are being cleaned up", m.appId(), m.state());
      return this;
    }
    long killAt = deps.clock().millis() + deps.amExpiry().toMillis();
    model.finishing.put(am.id(), new SchedulerModel.Finishing(m.appId(), killAt));
    getContext().getLog().info("Application {} ended as {}; its other containers are being cleaned up, its AM container "
        + "{} is left to exit", m.appId(), m.state(), am.id());
    return this;
  }

  /** Kills every live container of the application that matches; never-launched ones complete at once. */
  private void releaseAll(String appId, java.util.function.Predicate<SchedContainer> which, String diagnostics) {
    for (SchedContainer c : model.liveContainersOf(appId)) {
      if (which.test(c)) release(c, diagnostics);
    }
  }

  /** An AM container left to exit after its AM unregistered is killed once it has had the AM expiry interval. */
  private void expireFinishing() {
    long now = deps.clock().millis();
    for (Map.Entry<String, SchedulerModel.Finishing> e : List.copyOf(model.finishing.entrySet())) {
      SchedulerModel.Finishing f = e.getValue();
      if (f.killAt() > now) continue;
      SchedContainer c = model.containers.get(e.getKey());
      if (c == null) {
        model.finishing.remove(e.getKey());
        model.cleanUpOnNodes(f.appId());
        continue;
      }
      getContext().getLog().warn("AM container {} of {} still runs {} after its AM unregistered; killing it",
          e.getKey(), f.appId(), deps.amExpiry());
      model.finishing.put(e.getKey(), new SchedulerModel.Finishing(f.appId(), Long.MAX_VALUE));
      release(c, "AM container still running " + deps.amExpiry() + " after its ApplicationMaster unregistered");
    }
  }

  private void release(SchedContainer c, String diagnostics) {
    SchedNode node = model.nodes.get(c.allocation.nodeId());
    switch (c.phase) {
      case RUNNING -> { if (node != null) node.toKill.add(c.id()); }
      case ALLOCATED -> {
        // It may be starting right now: its space stays taken until the NM has heard the kill.
        if (node != null && node.containers.contains(c.id())) node.hold(c.id(), c.allocation.resource());
        completeContainer(c.id(), ExitStatus.ABORTED, diagnostics, null);
      }
      default -> { }
    }
  }

  // Nodes

  private Behavior<Command> onNodeRegistered(NodeRegistered m) {
    long now = deps.clock().millis();
    SchedNode old = model.nodes.get(m.registration().nodeId());
    SchedNode node = new SchedNode(m.registration(), now);
    if (old != null) {
      node.allocated = old.allocated;
      node.containers.addAll(old.containers);
      node.toKill.addAll(old.toKill);
      node.appsToCleanup.addAll(old.appsToCleanup);
    }
    model.nodes.put(node.id(), node);
    node.lastResponse = new NodeHeartbeatResponse(0, NodeAction.NORMAL, List.of(), List.of(), List.of(), 0, "", epoch);
    // Response ids start again with a registration: the kills go out with the next response.
    if (old != null) old.held.forEach((id, h) -> node.hold(id, h.resource()));
    actOn(node, model.readReport(node, m.containers()));
    for (String appId : model.ranOnReported(node.id(), m.runningApplications())) lookUpReportedApp(node.id(), appId);
    getContext().getLog().info("Node {} registered with {}", node.id(), node.capacity());
    m.replyTo().tell(epoch);
    scheduleSoon();
    return this;
  }

  private void lookUpReportedApp(String nodeId, String appId) {
    getContext().ask(ApplicationEntity.Ended.class, deps.applications().apply(appId), deps.askTimeout(),
        ApplicationEntity.GetEnded::new,
        (r, e) -> new ReportedAppLookedUp(nodeId, appId, r == null ? null : r.ended()));
  }

  private Behavior<Command> onReportedAppLookedUp(ReportedAppLookedUp m) {
    if (m.ended() == null) {
      // Left as it is: the node keeps reporting it with each registration, which asks again.
      getContext().getLog().warn("Application {} that node {} reports did not say whether it ended", m.appId(), m.nodeId());
      return this;
    }
    model.reportedAppLookedUp(m.nodeId(), m.appId(), m.ended());
    return this;
  }

  private Behavior<Command> onNodeHeartbeat(NodeHeartbeat m) {
    NodeHeartbeatRequest req = m.request();
    SchedNode node = model.nodes.get(req.nodeId());
    if (node == null || !node.state.isUsable() || node.awaitingResync) {
      m.replyTo().tell(NodeHeartbeatResponse.resync("Node not found resyncing " + req.nodeId()));
      return this;
    }
    NodeHeartbeatResponse last = node.lastResponse;
    if (req.responseId() + 1 == last.responseId()) {
      m.replyTo().tell(last);
      return this;
    }
    if (req.responseId() != last.responseId()) {
      m.replyTo().tell(NodeHeartbeatResponse.resync("Too far behind rm response id:" + last.responseId()
          + " nm response id:" + req.responseId()));
      return this;
    }
    node.lastHeartbeat = deps.clock().millis();
    node.healthReport = req.healthReport();
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
    m.replyTo().tell(resp);
    // A wave places asks only; with none waiting it would do nothing, once per heartbeat.
    if (!model.waiting.apps().isEmpty()) scheduleSoon();
    return this;
  }

  private void actOn(SchedNode node, SchedulerModel.ReportedContainers report) {
    for (ContainerStatus s : report.completed()) {
      completeContainer(s.containerId(), s.exitStatus(), s.diagnostics(), node);
    }
    for (String id : report.unknown()) adoptOrKill(node, id);
    for (String id : report.started()) markRunning(id);
  }

  private void markRunning(String containerId) {
    deps.containers().apply(containerId).tell(new ContainerEntity.MarkRunning(getContext().getSystem().ignoreRef()));
  }

  private void adoptOrKill(SchedNode node, String containerId) {
    if (node.toKill.contains(containerId) || !model.adopting.add(containerId)) return;
    String nodeId = node.id();
    AskPattern.<ContainerEntity.Command, StatusReply<ContainerEntity.Report>>ask(
            deps.containers().apply(containerId), ContainerEntity.Get::new,
            deps.askTimeout(), getContext().getSystem().scheduler())
        .whenComplete((r, e) -> getContext().getSelf().tell(new AdoptionChecked(nodeId, containerId,
            e == null && r.isSuccess() ? r.getValue() : null, e == null ? null : e.toString())));
  }

  private Behavior<Command> onAdoptionChecked(AdoptionChecked m) {
    model.adopting.remove(m.containerId());
    SchedNode node = model.nodes.get(m.nodeId());
    if (model.containers.containsKey(m.containerId()) || node == null) return this;
    if (m.error() != null) {
      // Its entity may be moving too; the NM reports the container again with its next heartbeat.
      getContext().getLog().warn("Could not look up unknown container {} on {}: {}", m.containerId(), m.nodeId(),
          m.error());
      return this;
    }
    ContainerEntity.Report r = m.report();
    SchedApp app = r == null || r.allocation() == null ? null : model.appsByAttempt.get(r.allocation().attemptId());
    String refusal = Adoption.refusal(r, node.id(), app != null, node.allocated, node.capacity());
    if (refusal != null) {
      getContext().getLog().info("Killing container {} on {}, unknown to the scheduler: {}", m.containerId(),
          node.id(), refusal);
      node.toKill.add(m.containerId());
      return this;
    }
    SchedContainer c = new SchedContainer(r.allocation(), r.allocatedTime());
    c.phase = SchedContainer.Phase.RUNNING;
    model.countOn(node, c);
    app.add(c);
    if (r.phase() == ContainerEntity.Phase.ALLOCATED) markRunning(c.id());
    if (r.preemption() != null) model.preempting.put(c.id(), r.preemption());
    getContext().getLog().info("Adopted container {} on {}: its NM runs it and the journal holds its allocation",
        c.id(), node.id());
    return this;
  }

  /**
   * YARN's AM liveness monitor: an attempt whose AM has been silent for the expiry fails, which
   * kills its containers and starts the next attempt if any are left.
   */
  private void expireAms() {
    long now = deps.clock().millis();
    for (SchedApp app : model.amsSilentSince(now - deps.amExpiry().toMillis())) {
      // Said again if the attempt has not ended an ask timeout later (the entity may have been moving).
      if (app.amExpiryReportedAt != 0 && now - app.amExpiryReportedAt < deps.askTimeout().toMillis()) continue;
      app.amExpiryReportedAt = now;
      String diagnostics = "ApplicationMaster for attempt " + app.attemptId + " timed out";
      getContext().getLog().warn("{}: no register or allocate call for {}", diagnostics, deps.amExpiry());
      deps.applications().apply(app.appId).tell(new ApplicationEntity.AmContainerFinished(app.attemptId,
          ExitStatus.INVALID, diagnostics, getContext().getSystem().ignoreRef()));
    }
  }

  private void expireNodes() {
    long now = deps.clock().millis();
    for (SchedNode node : model.nodes.values()) {
      if (node.state.isUsable() && now - node.lastHeartbeat > deps.nmExpiry().toMillis()) {
        node.state = NodeState.LOST;
        getContext().getLog().warn("Node {} lost: no heartbeat for {}", node.id(), deps.nmExpiry());
        for (String id : List.copyOf(node.containers)) {
          completeContainer(id, ExitStatus.ABORTED, "Container released on a *lost* node", null);
        }
      }
    }
  }

  /**
   * A container handed out but never started within the token's lifetime is taken back, as YARN's
   * allocation expirer does ({@code yarn.resourcemanager.rm.container-allocation.expiry-interval-ms}).
   * The allocation time comes from the journal, so the clock survives a failover.
   */
  private void expireAllocations() {
    long cutoff = deps.clock().millis() - deps.containerTokenLifetime().toMillis();
    for (SchedContainer c : model.unstartedBefore(cutoff)) {
      getContext().getLog().info("Allocation of {} expired: never started", c.id());
      release(c, "Container expired since it was unused");
    }
  }

  // Containers

  private void completeContainer(String containerId, int exitStatus, String diagnostics, SchedNode ackTo) {
    SchedContainer c = model.containers.get(containerId);
    if (c == null) return;
    model.startCompletion(c);
    PreemptionRecord preempted = model.preempting.get(containerId);
    if (preempted != null) {
      // YARN reports a preempted container as PREEMPTED whatever signal ended the process.
      exitStatus = ExitStatus.PREEMPTED;
      diagnostics = "Container preempted by scheduler: " + preempted.reason();
    }
    int exit = exitStatus;
    String diag = diagnostics;
    ContainerStatus status = ContainerStatus.completed(containerId, exit, diag, c.allocation.resource());
    getContext().askWithStatus(Done.class, deps.containers().apply(containerId), deps.askTimeout(),
        r -> new ContainerEntity.Complete(exit, diag, r),
        (done, e) -> new CompletionDone(containerId, status, e == null ? null : e.getMessage()));
  }

  private Behavior<Command> onCompletionDone(CompletionDone m) {
    SchedContainer c = model.containers.get(m.containerId());
    if (c == null) return this;
    if (m.error() != null) {
      // The NM keeps reporting the container until we acknowledge it, which retries this write.
      getContext().getLog().warn("Completion of {} not persisted yet: {}", m.containerId(), m.error());
      return this;
    }
    model.untrack(m.containerId());
    model.preempting.remove(m.containerId());
    SchedulerModel.Finishing finished = model.finishing.remove(m.containerId());
    if (finished != null) model.cleanUpOnNodes(finished.appId());
    SchedNode node = model.nodes.get(c.allocation.nodeId());
    if (node != null) node.toRemoveFromNm.add(m.containerId());
    SchedApp app = model.apps.get(c.allocation.appId());
    if (app != null) {
      app.remove(c);
      // Only the attempt that was given the container hears it completed.
      if (!c.allocation.am() && c.allocation.attemptId().equals(app.attemptId)) app.completed.add(m.status());
    }
    getContext().getLog().info("Container {} of {} completed with exit status {}", m.containerId(),
        c.allocation.appId(), m.status().exitStatus());
    if (c.allocation.am()) {
      deps.applications().apply(c.allocation.appId()).tell(new ApplicationEntity.AmContainerFinished(
          c.allocation.attemptId(), m.status().exitStatus(), m.status().diagnostics(),
          getContext().getSystem().ignoreRef()));
    }
    return this;
  }

  // Scheduling

  /**
   * Allocation in waves: a pass looks at every node and every application with demand, so running
   * one per heartbeat or allocate call would cost O(nodes) per message. Messages that change the
   * model ask for a wave instead; it runs once the messages already in the mailbox are handled.
   */
  private void scheduleSoon() {
    if (waveQueued) return;
    waveQueued = true;
    getContext().getSelf().tell(new Wave());
  }

  private void schedule() {
    // Throttled, a wave could place only the few allocations just acknowledged, at the cost of a
    // whole pass (O(apps x containers) under fair): wait until half the bound is free again.
    if (recovering() || throttled) return;
    List<AppView> demand = new ArrayList<>();
    for (SchedApp app : model.waiting.apps()) demand.add(app.view());
    if (demand.isEmpty()) return;
    List<NodeView> usable = new ArrayList<>();
    Resource capacity = Resource.NONE;
    for (SchedNode n : model.nodes.values()) {
      if (!n.state.isUsable()) continue;
      usable.add(n.view());
      capacity = capacity.plus(n.capacity());
    }
    if (usable.isEmpty()) return;
    // The plan stops where the in-flight bound would: planning the whole cluster's demand only to
    // place the first part cost a full plan per refill of the bound (at 10,000 nodes, ~80 plans of
    // 79,000 placements to place 79,000 once). The plan is the same prefix either way.
    int room = deps.settings().maxAllocationsInFlight() - allocationsInFlight;
    AllocationPlan plan = fair != null
        ? fair.assign(usable, demand.stream().map(Scheduler::underRoot).toList(), FairInputs.apps(model.apps.values()),
            room)
        : deps.policy().assign(deps.settings().queues(), usable, demand, amHeadroom(capacity), room);
    for (Assignment a : plan.assignments()) {
      if (place(a) && fair != null) fair.placed(a);
    }
    if (plan.assignments().size() < room) return;
    // What the plan left is the least deserving and stays asked for: planned again once half the
    // bound is free, or at once if placements the plan made stale left it free already.
    if (allocationsInFlight > deps.settings().maxAllocationsInFlight() / 2) throttled = true;
    else scheduleSoon();
  }

  /** What more AMs may take under bobbin.scheduler.max-am-share; the first AM always fits, as in YARN. */
  private Resource amHeadroom(Resource capacity) {
    Resource amUsed = model.amUsed();
    if (amUsed.memory() <= 0 && amUsed.vCores() <= 0) return Resource.of(Long.MAX_VALUE, Integer.MAX_VALUE);
    double share = deps.settings().maxAmShare();
    Resource limit = Resource.of((long) (capacity.memory() * share), (int) (capacity.vCores() * share));
    return limit.minus(amUsed);
  }

  private static AppView underRoot(AppView v) {
    return new AppView(v.appId(), v.attemptId(), "root." + v.queue(), v.priority(), v.submitTime(), v.asks());
  }

  /** @return whether it was placed: the plan is from views that earlier placements may have made stale */
  private boolean place(Assignment a) {
    SchedContainer c = model.place(a, epoch, deps.clock().millis());
    if (c == null) return false;
    ContainerEntity.Allocation alloc = c.allocation;
    String containerId = alloc.containerId();
    containersAllocated++;
    getContext().getLog().info("Allocating {} ({}) on {} for {}: {}", containerId, a.capability(), a.nodeId(),
        a.attemptId(), a.reason());
    // The context's ask hands the answer to this actor from the thread that completes it: no
    // future callback on another pool between the entity's reply and this mailbox.
    getContext().askWithStatus(Done.class, deps.containers().apply(containerId), deps.askTimeout(),
        r -> new ContainerEntity.Allocate(alloc, r),
        (done, e) -> new AllocationDone(containerId, e == null ? null : e.getMessage(),
            e == null || e instanceof StatusReply.ErrorMessage));
    allocationsInFlight++;
    return true;
  }

  /**
   * A write that got no answer may still have landed, or land later: the entity is told to end the
   * container either way, or the next scheduler to recover would count it on its node. The space
   * is freed at once all the same, because no AM has the container.
   */
  private void withdraw(String containerId) {
    var entity = deps.containers().apply(containerId);
    var system = getContext().getSystem();
    Retrying.ask(t -> AskPattern.<ContainerEntity.Command, StatusReply<Done>>ask(entity,
            ContainerEntity.Withdraw::new, t, system.scheduler()), WITHDRAW_WITHIN)
        .whenComplete((r, e) -> {
          if (e != null || r.isError()) {
            LOG.warn("Could not withdraw the allocation of {}: {}; a recovering scheduler will abort it",
                containerId, e != null ? e.getMessage() : r.getError().getMessage());
          }
        });
  }

  private Behavior<Command> onAllocationDone(AllocationDone m) {
    allocationsInFlight--;
    if (throttled && allocationsInFlight <= deps.settings().maxAllocationsInFlight() / 2) {
      throttled = false;
      scheduleSoon();
    }
    SchedContainer c = model.containers.get(m.containerId());
    if (c == null || c.phase != SchedContainer.Phase.IN_FLIGHT) return this;
    ContainerEntity.Allocation a = c.allocation;
    SchedApp app = model.appsByAttempt.get(a.attemptId());
    if (m.error() != null) {
      getContext().getLog().warn("Allocation of {} failed to persist: {}", m.containerId(), m.error());
      if (!m.answered()) withdraw(m.containerId());
      model.unplace(c);
      if (app != null) {
        Ask again = new Ask(a.priority(), Ask.ANY, a.resource(), 1, true, a.allocationRequestId(), a.am());
        SchedApp.AskKey key = SchedApp.AskKey.of(again);
        Ask prev = app.ask(key);
        app.replaceAsk(prev == null ? again : prev.withCount(prev.count() + 1));
      }
      return this;
    }
    model.setPhase(c, SchedContainer.Phase.ALLOCATED);
    if (app == null) {
      // The attempt ended while the write was pending.
      release(c, "Container allocated to an attempt that has ended");
      return this;
    }
    if (a.am()) {
      model.heardFromAm(app, deps.clock().millis());
      deps.applications().apply(a.appId()).tell(new ApplicationEntity.AssignAmContainer(
          a.attemptId(), a.containerId(), a.nodeId(), a.nodeHttpAddress(), getContext().getSystem().ignoreRef()));
      launchAm(a, app);
    } else {
      app.newlyAllocated.add(toWire(a, app.user));
    }
    return this;
  }

  private Container toWire(ContainerEntity.Allocation a, String user) {
    long expiry = deps.clock().millis() + deps.containerTokenLifetime().toMillis();
    // The token carries the epoch: a NodeManager refuses tokens of a scheduler older than one it has seen.
    String token = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(a.containerId(), a.nodeId(), user,
        a.resource(), expiry, epoch), deps.tokenSecret());
    return new Container(a.containerId(), a.nodeId(), a.nodeHttpAddress(), a.resource(), a.priority(), token,
        a.allocationRequestId());
  }

  // The AM protocol

  private Behavior<Command> onAmRegistered(AmRegistered m) {
    m.replyTo().tell(amProtocol.register(m.attemptId(), deps.clock().millis()));
    return this;
  }

  private Behavior<Command> onAllocate(Allocate m) {
    AmProtocol.AllocateStep step = amProtocol.allocate(m.attemptId(), m.request(), deps.clock().millis());
    if (!step.delivered().isEmpty()) {
      deps.applications().apply(step.appId()).tell(new ApplicationEntity.RecordDeliveries(m.attemptId(),
          step.delivered(), getContext().getSystem().ignoreRef()));
    }
    for (SchedContainer c : step.toRelease()) release(c, "Container released by application");
    if (step.asked()) scheduleSoon();
    m.replyTo().tell(step.reply());
    return this;
  }

  // The Fair policy

  private Behavior<Command> onPlaceApp(PlaceApp m) {
    if (fair == null) {
      String q = m.requestedQueue() == null || m.requestedQueue().isBlank() ? "default"
          : m.requestedQueue().startsWith("root.") ? m.requestedQueue().substring(5) : m.requestedQueue();
      m.replyTo().tell(deps.settings().queues().contains(q) ? new QueueDecision(q, null)
          : new QueueDecision(null, "Queue " + m.requestedQueue() + " does not exist; known queues: "
              + deps.settings().queues()));
      return this;
    }
    Placement p = fair.place(m.requestedQueue(), m.user());
    if (p instanceof Placement.Placed placed) {
      m.replyTo().tell(new QueueDecision(placed.queue().substring("root.".length()), null));
    } else {
      m.replyTo().tell(new QueueDecision(null, "Application rejected by queue placement: "
          + ((Placement.Rejected) p).reason()));
    }
    return this;
  }

  private Behavior<Command> onRefreshQueues(RefreshQueues m) {
    if (fair == null) {
      m.replyTo().tell(StatusReply.error("Queue refresh needs the fair policy; this scheduler runs fifo"));
      return this;
    }
    FairSetup next;
    try {
      next = deps.fairReload().get();
    } catch (RuntimeException e) {
      getContext().getLog().warn("Queue configuration rejected, the running one stays: {}", e.getMessage());
      m.replyTo().tell(StatusReply.error("Queue configuration rejected: " + e.getMessage()));
      return this;
    }
    fair.reconfigure(next);
    getContext().getLog().info("Fair scheduler queues reloaded: {}", next.config().queues().keySet());
    fairUpdate();
    m.replyTo().tell(StatusReply.success("Queues refreshed: " + next.config().queues().keySet()));
    return this;
  }

  private Behavior<Command> onGetFairView(GetFairView m) {
    if (fair == null) {
      m.replyTo().tell(StatusReply.error("the scheduler runs the fifo policy"));
      return this;
    }
    m.replyTo().tell(StatusReply.success(new FairView(fair.root(), fair.shares(), fair.cluster(),
        ModelReports.leafApps(model.apps.values(), model.containers))));
    return this;
  }

  /** Recomputes shares, looks for starvation, preempts, and kills what is due. */
  private void fairUpdate() {
    long now = deps.clock().millis();
    List<AppSnapshot> snapshots = FairInputs.apps(model.apps.values());
    fair.recompute(FairInputs.capacity(model.nodes.values()), snapshots);
    fair.dropReservationsWithoutDemand(snapshots);
    PreemptionPlan plan = fair.preempt(snapshots, FairInputs.usableNodes(model.nodes.values()),
        FairInputs.preemptable(model.containers.values(), model.finishing.keySet()), model.preempting.keySet(), now);
    // Journalled only when they change, so a running timeout survives a move of the scheduler.
    schedulerJournal.tell(new EpochEntity.SaveClocks(fair.clocks()));
    long killAt = now + deps.fair().global().waitTimeBeforeKill().toMillis();
    for (PreemptionDecision d : plan.decisions()) {
      for (PreemptionRecord r : model.startPreemption(d, now, killAt)) preempt(r, d.nodeId());
    }
    SchedulerModel.DuePreemptions due = model.duePreemptions(now);
    for (PreemptionRecord r : due.killed()) {
      getContext().getLog().info("Killing preempted container {} of {} after the grace period", r.containerId(),
          r.victimAppId());
    }
    for (PreemptionRecord r : due.toRelease()) {
      release(model.containers.get(r.containerId()), "Container preempted by scheduler before it started: " + r.reason());
    }
    scheduleSoon();
  }

  private void preempt(PreemptionRecord r, String nodeId) {
    getContext().getLog().info("Preempting {} of {} on {} for {}: {}", r.containerId(), r.victimAppId(), nodeId,
        r.starvedAppId(), r.reason());
    ActorRef<StatusReply<Done>> ignore = getContext().getSystem().ignoreRef();
    deps.containers().apply(r.containerId()).tell(new ContainerEntity.RequestPreemption(r, ignore));
    deps.applications().apply(r.victimAppId()).tell(new ApplicationEntity.RecordPreemption(r, true, ignore));
    deps.applications().apply(r.starvedAppId()).tell(new ApplicationEntity.RecordPreemption(r, false, ignore));
  }

  // Views

  private Behavior<Command> onGetNodes(GetNodes m) {
    m.replyTo().tell(ModelReports.nodes(model.nodes.values()));
    return this;
  }

  private Behavior<Command> onGetUsage(GetUsage m) {
    m.replyTo().tell(ModelReports.usage(model.apps.values(), model.containers, model.nodes.values(), containersAllocated));
    return this;
  }
}
