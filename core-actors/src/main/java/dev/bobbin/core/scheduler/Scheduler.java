package dev.bobbin.core.scheduler;

import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.policy.AllocationLimits;
import dev.bobbin.core.policy.PolicySet;
import dev.bobbin.core.policies.PolicySets;
import dev.bobbin.core.policy.Reconfiguration;
import dev.bobbin.core.scheduler.SchedulerProtocol.AdoptionChecked;
import dev.bobbin.core.scheduler.SchedulerProtocol.Allocate;
import dev.bobbin.core.scheduler.SchedulerProtocol.AllocationDone;
import dev.bobbin.core.scheduler.SchedulerProtocol.AmLaunched;
import dev.bobbin.core.scheduler.SchedulerProtocol.AmRegistered;
import dev.bobbin.core.scheduler.SchedulerProtocol.AppEnded;
import dev.bobbin.core.scheduler.SchedulerProtocol.AttemptAdded;
import dev.bobbin.core.scheduler.SchedulerProtocol.AttemptEnded;
import dev.bobbin.core.scheduler.SchedulerProtocol.Command;
import dev.bobbin.core.scheduler.SchedulerProtocol.CompletionDone;
import dev.bobbin.core.scheduler.SchedulerProtocol.ConfigLoaded;
import dev.bobbin.core.scheduler.SchedulerProtocol.EpochLoaded;
import dev.bobbin.core.scheduler.SchedulerProtocol.GetAppUsage;
import dev.bobbin.core.scheduler.SchedulerProtocol.GetNodes;
import dev.bobbin.core.scheduler.SchedulerProtocol.GetUsage;
import dev.bobbin.core.scheduler.SchedulerProtocol.GetView;
import dev.bobbin.core.scheduler.SchedulerProtocol.NodeHeartbeat;
import dev.bobbin.core.scheduler.SchedulerProtocol.NodeRegistered;
import dev.bobbin.core.scheduler.SchedulerProtocol.PolicyTick;
import dev.bobbin.core.scheduler.SchedulerProtocol.Reconfigure;
import dev.bobbin.core.scheduler.SchedulerProtocol.Recovered;
import dev.bobbin.core.scheduler.SchedulerProtocol.ReportedAppLookedUp;
import dev.bobbin.core.scheduler.SchedulerProtocol.RetryCompletion;
import dev.bobbin.core.scheduler.SchedulerProtocol.Tick;
import dev.bobbin.core.scheduler.SchedulerProtocol.Wave;
import dev.bobbin.core.scheduler.SchedulerProtocol.WhenRecovered;
import dev.bobbin.core.scheduler.SchedulerProtocol.WriteAgain;
import dev.bobbin.core.scheduler.SchedulerProtocol.Written;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.BehaviorBuilder;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.pattern.StatusReply;

/**
 * The scheduler of one partition (a cluster singleton). It routes each message to the part that
 * decides on it (the NodeManagers' side, the AMs' side, lifecycles and expiries, allocation, the
 * policy's updates), holds the timers, and carries out what the parts decide through
 * {@link SchedulerEffects}, hearing as a message every outcome that calls for more (a write that
 * failed is sent again).
 *
 * <p>Its phases: starting (taking an epoch, recording it with the token keys and reading the journal,
 * messages stashed), recovering (everything answered, nothing allocated until enough nodes
 * re-synced or the recovery wait is over) and running.
 */
public final class Scheduler implements Acts {
  /** Writes that got no answer are sent this many times in all before the scheduler gives up on them. */
  private static final int WRITE_ATTEMPTS = 5;

  public static Behavior<Command> create(SchedulerDeps deps) {
    return Behaviors.withStash(10_000, stash -> Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      SchedulerEffects effects = deps.effects().apply(ctx);
      ctx.pipeToSelf(effects.nextEpoch(), (s, e) -> new EpochLoaded(s, e == null ? null : e.toString()));
      return Behaviors.receive(Command.class)
          .onMessage(EpochLoaded.class, m -> {
            if (m.error() != null) throw new IllegalStateException("Scheduler epoch not taken: " + m.error());
            // Its epoch goes on record with the token keys first: AM tokens of earlier epochs are then checked.
            ctx.pipeToSelf(deps.keys().schedulerStarted(m.started().epoch()).thenCompose(k -> effects.readJournal()),
                (model, err) -> new Recovered(m.started(), model, err == null ? null : err.toString()));
            return Behaviors.same();
          })
          .onMessage(Recovered.class, m -> {
            if (m.error() != null) throw new IllegalStateException("Scheduler recovery failed: " + m.error());
            ctx.getLog().info("Scheduler starting with epoch {}: {} applications, {} containers, {} nodes in the "
                    + "journal", m.started().epoch(), m.model().apps().size(), m.model().containers().size(),
                m.model().nodes().size());
            return stash.unstashAll(new Scheduler(ctx, timers, deps, effects, m.started(), m.model()).firstPhase());
          })
          .onAnyMessage(m -> {
            stash.stash(m);
            return Behaviors.same();
          })
          .build();
    })));
  }

  private final ActorContext<Command> ctx;
  private final TimerScheduler<Command> timers;
  private final SchedulerDeps deps;
  private final SchedulerEffects effects;
  private final SchedulerModel model = new SchedulerModel();
  private final PolicySet policy;
  private final ContainerTokens tokens;
  private final Lifecycles lifecycles;
  private final NodeSide nodes;
  private final Decommissions decommissions;
  private final UntrackedNodes untracked;
  private final AmProtocol amProtocol;
  private final Allocator allocator;
  private final PolicyUpdates updates;
  private final Recovery recovery;
  private boolean waveQueued;

  private Scheduler(ActorContext<Command> ctx, TimerScheduler<Command> timers, SchedulerDeps deps,
      SchedulerEffects effects, EpochEntity.Started started, RecoveredModel recovered) {
    this.ctx = ctx;
    this.timers = timers;
    this.deps = deps;
    this.effects = effects;
    this.policy = PolicySets.create(deps.policy());
    model.fitContainersBy(policy::fitsOnNode);
    this.tokens = new ContainerTokens(started.epoch(), deps.keys(), deps.containerTokenLifetime(), deps.clock());
    this.lifecycles = new Lifecycles(model, policy, deps, this);
    this.nodes = new NodeSide(model, lifecycles, deps, started.epoch(), this);
    this.decommissions = new Decommissions(model, lifecycles, deps, this);
    this.untracked = new UntrackedNodes(model, deps, this);
    AllocationLimits limits = AllocationLimits.of(deps.settings());
    this.amProtocol = new AmProtocol(model, limits, leaf -> policy.allocationLimits(limits, leaf));
    this.allocator = new Allocator(model, policy, lifecycles, deps, tokens, this);
    this.updates = new PolicyUpdates(model, policy, lifecycles, deps, this, PolicyUpdates.clocks(started.clocks()));
    long now = deps.clock().millis();
    for (ContainerEntity.Allocation a : Recovery.rebuild(model, policy, recovered, now, deps.amExpiry().toMillis())) {
      write(new Write.AssignAmContainer(a));
    }
    this.recovery = new Recovery(model, now, deps);
  }

  private Behavior<Command> firstPhase() {
    timers.startTimerWithFixedDelay(new Tick(), deps.settings().allocationInterval());
    startPolicyTimer();
    return recovery.isOver(deps.clock().millis()) ? endRecovery() : recovering();
  }

  private void startPolicyTimer() {
    policy.updateInterval().ifPresent(i -> timers.startTimerWithFixedDelay(new PolicyTick(), i));
  }

  // Phases

  private Behavior<Command> recovering() {
    return common()
        .onMessage(Tick.class, m -> {
          expire();
          Behavior<Command> next = recovery.isOver(deps.clock().millis()) ? endRecovery() : Behaviors.same();
          amProtocol.refreshHeadroom();
          return next;
        })
        .onMessage(Wave.class, m -> {
          waveQueued = false;
          return recovery.isOver(deps.clock().millis()) ? endRecovery() : Behaviors.same();
        })
        .build();
  }

  private Behavior<Command> endRecovery() {
    recovery.finish(lifecycles, this, deps.clock().millis());
    allocator.pass();
    return running();
  }

  private Behavior<Command> running() {
    return common()
        .onMessage(Tick.class, m -> {
          expire();
          allocator.pass();
          amProtocol.refreshHeadroom();
          return Behaviors.same();
        })
        .onMessage(Wave.class, m -> {
          waveQueued = false;
          allocator.pass();
          return Behaviors.same();
        })
        .build();
  }

  private void expire() {
    nodes.expireNodes();
    decommissions.follow();
    untracked.forget();
    lifecycles.expireAllocations();
    lifecycles.expireAms();
    lifecycles.expireAmsLeftToExit();
    lifecycles.expireLifetimes();
  }

  /** What both phases answer alike. */
  private BehaviorBuilder<Command> common() {
    return Behaviors.receive(Command.class)
        .onMessage(AttemptAdded.class, m -> same(() -> lifecycles.attemptAdded(m)))
        .onMessage(AttemptEnded.class, m -> same(() -> lifecycles.attemptEnded(m)))
        .onMessage(AppEnded.class, m -> same(() -> lifecycles.appEnded(m)))
        .onMessage(SchedulerProtocol.PriorityChanged.class, m -> same(() -> lifecycles.priorityChanged(m)))
        .onMessage(SchedulerProtocol.LifetimeChanged.class, m -> same(() -> lifecycles.lifetimeChanged(m)))
        .onMessage(SchedulerProtocol.QueueMoved.class, m -> same(() -> lifecycles.queueMoved(m)))
        .onMessage(NodeRegistered.class, m -> same(() -> m.replyTo().tell(nodes.register(m))))
        .onMessage(SchedulerProtocol.DecommissionRefusedHosts.class, m -> same(() -> m.replyTo().tell(
            new SchedulerProtocol.Decommissioned(decommissions.refresh(m.included(), m.excluded(), m.gracefulMillis())))))
        .onMessage(SchedulerProtocol.SetNodeState.class, m -> same(() ->
            m.replyTo().tell(decommissions.setState(m.nodeId(), m.state(), m.gracefulMillis()))))
        .onMessage(NodeHeartbeat.class, m -> same(() -> m.replyTo().tell(nodes.heartbeat(m.request()))))
        .onMessage(SchedulerProtocol.NodeUnregistered.class, m -> same(() ->
            m.replyTo().tell(nodes.unregister(m.nodeId()))))
        .onMessage(AmRegistered.class, m -> same(() ->
            m.replyTo().tell(amProtocol.register(m.attemptId(), deps.clock().millis(), tokens::container))))
        .onMessage(Allocate.class, m -> same(() -> onAllocate(m)))
        .onMessage(AllocationDone.class, m -> same(() -> allocator.allocationDone(m)))
        .onMessage(CompletionDone.class, m -> same(() -> onCompletionDone(m)))
        .onMessage(RetryCompletion.class, m -> same(() -> lifecycles.retryCompletion(m)))
        .onMessage(AdoptionChecked.class, m -> same(() -> nodes.adoptionChecked(m)))
        .onMessage(ReportedAppLookedUp.class, m -> same(() -> nodes.reportedAppLookedUp(m)))
        .onMessage(AmLaunched.class, m -> same(() -> onAmLaunched(m)))
        .onMessage(Written.class, m -> same(() -> onWritten(m)))
        .onMessage(WriteAgain.class, m -> same(() -> send(m.write(), m.attempt())))
        .onMessage(PolicyTick.class, m -> same(updates::update))
        .onMessage(Reconfigure.class, m -> same(() -> ctx.pipeToSelf(effects.loadPolicyConfig(),
            (config, e) -> new ConfigLoaded(config, e == null ? null : message(e), m.replyTo()))))
        .onMessage(ConfigLoaded.class, m -> same(() -> onConfigLoaded(m)))
        .onMessage(WhenRecovered.class, m -> same(() -> m.replyTo().tell(Done.getInstance())))
        .onMessage(GetNodes.class, m -> same(() -> m.replyTo().tell(ModelReports.nodes(model))))
        .onMessage(GetUsage.class, m -> same(() ->
            m.replyTo().tell(ModelReports.usage(model, policy, allocator.containersAllocated()))))
        .onMessage(GetAppUsage.class, m -> same(() -> m.replyTo().tell(ModelReports.appUsage(model, policy, m.appId()))))
        .onMessage(SchedulerProtocol.GetAppContainers.class, m -> same(() ->
            m.replyTo().tell(ModelReports.appContainers(model, m.appId()))))
        .onMessage(GetView.class, m -> same(() -> m.replyTo().tell(policy.view(new ModelView(model)))))
        .onMessage(SchedulerProtocol.GetMoveTarget.class, m -> same(() ->
            m.replyTo().tell(SchedulerProtocol.MoveTarget.of(policy.moveTarget(m.queue())))));
  }

  private static Behavior<Command> same(Runnable handler) {
    handler.run();
    return Behaviors.same();
  }

  // The AM protocol's effects

  private void onAllocate(Allocate m) {
    AmProtocol.AllocateStep step = amProtocol.allocate(m.attemptId(), m.request(), deps.clock().millis());
    if (!step.delivered().isEmpty()) write(new Write.RecordDeliveries(step.appId(), m.attemptId(), step.delivered()));
    for (SchedContainer c : step.toRelease()) lifecycles.release(c, "Container released by application");
    if (step.asked()) scheduleSoon();
    m.replyTo().tell(step.reply());
  }

  private void onAmLaunched(AmLaunched m) {
    if (m.error() != null) {
      lifecycles.complete(m.containerId(), ExitStatus.INVALID, "AM container failed to launch: " + m.error());
    }
  }

  private void onConfigLoaded(ConfigLoaded m) {
    if (m.error() != null) {
      ctx.getLog().warn("Queue configuration rejected, the running one stays: {}", m.error());
      m.replyTo().tell(StatusReply.error("Queue configuration rejected: " + m.error()));
      return;
    }
    Reconfiguration r = policy.reconfigure(m.config());
    if (r instanceof Reconfiguration.Rejected rejected) {
      String reasons = String.join("; ", rejected.reasons());
      ctx.getLog().warn("Queue configuration rejected, the running one stays: {}", reasons);
      m.replyTo().tell(StatusReply.error(reasons));
      return;
    }
    String summary = ((Reconfiguration.Accepted) r).summary();
    ctx.getLog().info("Scheduler policy reconfigured: {}", summary);
    startPolicyTimer();
    updates.update();
    m.replyTo().tell(StatusReply.success(summary));
  }

  private void onCompletionDone(CompletionDone m) {
    lifecycles.completionDone(m);
    if (m.error() != null && model.container(m.containerId()) != null) {
      timers.startSingleTimer("complete " + m.containerId(), new RetryCompletion(m.containerId(), m.status()),
          deps.askTimeout());
    }
  }

  private void onWritten(Written m) {
    if (m.refused()) {
      ctx.getLog().warn("{} refused: {}", m.write(), m.error());
    } else if (m.attempt() >= WRITE_ATTEMPTS) {
      ctx.getLog().error("{} got no answer {} times; given up: {}", m.write(), m.attempt(), m.error());
    } else {
      ctx.getLog().warn("{} got no answer, sending it again: {}", m.write(), m.error());
      timers.startSingleTimer(new WriteAgain(m.write(), m.attempt() + 1), deps.askTimeout());
    }
  }

  // Acts: what the parts decide, carried out

  @Override
  public void persistAllocation(SchedContainer c) {
    String id = c.id();
    ctx.pipeToSelf(effects.persistAllocation(c.allocation), (done, e) -> new AllocationDone(id,
        e == null ? null : message(e), e == null || Retrying.cause(e) instanceof StatusReply.ErrorMessage));
  }

  @Override
  public void complete(String containerId, ContainerStatus status) {
    ctx.pipeToSelf(effects.complete(containerId, status.exitStatus(), status.diagnostics()),
        (done, e) -> new CompletionDone(containerId, status, e == null ? null : message(e)));
  }

  @Override
  public void withdraw(String containerId) {
    write(new Write.Withdraw(containerId));
  }

  @Override
  public void write(Write write) {
    send(write, 1);
  }

  /**
   * The outcome comes back only when the write failed: a landed write needs nothing more, and
   * there is one for nearly every container (its first start), so a message for each would cost
   * the scheduler as much as the write's ask. The callback only tells this actor, as pipeToSelf
   * does; it reads nothing of its state.
   */
  private void send(Write write, int attempt) {
    ActorRef<Command> self = ctx.getSelf();
    write.run(effects).whenComplete((done, e) -> {
      if (e != null) {
        self.tell(new Written(write, attempt, message(e), Retrying.cause(e) instanceof StatusReply.ErrorMessage));
      }
    });
  }

  @Override
  public void launchAm(ContainerEntity.Allocation a, SchedApp app) {
    AmLauncher.Launch launch = new AmLauncher.Launch(a.appId(), a.attemptId(), app.user, tokens.container(a, app.user),
        app.amLaunch, tokens.amToken(a.attemptId(), app.user), null);
    ctx.pipeToSelf(effects.launchAm(launch), (error, e) -> {
      // No answer says nothing of the start: if it failed, the AM expiry fails the attempt.
      if (e != null) ctx.getLog().warn("No word whether AM container {} started: {}", a.containerId(), message(e));
      return new AmLaunched(a.containerId(), e == null ? error.orElse(null) : null);
    });
  }

  @Override
  public void lookUpContainer(String nodeId, String containerId) {
    ctx.pipeToSelf(effects.lookUpContainer(containerId), (r, e) ->
        new AdoptionChecked(nodeId, containerId, e == null ? r.orElse(null) : null, e == null ? null : e.toString()));
  }

  @Override
  public void lookUpApp(String nodeId, String appId) {
    ctx.pipeToSelf(effects.hasEnded(appId), (ended, e) -> new ReportedAppLookedUp(nodeId, appId, e == null ? ended : null));
  }

  /**
   * Allocation in waves: a pass looks at every node and every application with demand, so running
   * one per heartbeat or allocate call would cost O(nodes) per message. Messages that change the
   * model ask for a wave instead; it runs once the messages already in the mailbox are handled.
   */
  @Override
  public void scheduleSoon() {
    if (waveQueued) return;
    waveQueued = true;
    ctx.getSelf().tell(new Wave());
  }

  private static String message(Throwable e) {
    Throwable t = Retrying.cause(e);
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
