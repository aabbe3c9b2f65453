package dev.bobbin.node;

import dev.bobbin.config.ContainerMonitorSettings;
import dev.bobbin.config.NmCgroupsSettings;
import dev.bobbin.config.NmCleanupSettings;
import dev.bobbin.config.NmSettings;
import dev.bobbin.node.cleanup.DeletionService;
import dev.bobbin.node.cleanup.ApplicationFiles;
import dev.bobbin.node.NodeView.RmLinkState;
import dev.bobbin.node.aux.AuxServices;
import dev.bobbin.node.cgroups.NodeCgroups;
import dev.bobbin.node.container.ContainerActor;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ContainerTable;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.localizer.Localizer;
import dev.bobbin.node.logs.ApplicationLogs;
import dev.bobbin.node.logs.ContainerLogLocation;
import dev.bobbin.node.monitor.ContainerUsages;
import dev.bobbin.node.monitor.ContainersMonitor;
import dev.bobbin.node.monitor.MemoryLimit;
import dev.bobbin.node.monitor.ProcFs;
import dev.bobbin.node.health.DiskChecker;
import dev.bobbin.node.health.DisksHealth;
import dev.bobbin.node.health.HealthMonitor;
import dev.bobbin.node.health.NodeHealth;
import dev.bobbin.node.recovery.ContainerRecovery;
import dev.bobbin.node.recovery.StateRecorder;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.Failover;
import dev.bobbin.protocol.client.ResourceTrackerClient;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The NodeManager: registers with the RM and heartbeats (following the RM's actions), and keeps
 * the node's containers, each run by a {@link ContainerActor} child. It waits for {@link Start},
 * which names the bound HTTP port, before doing anything else.
 */
public final class NodeAgent extends AbstractBehavior<NodeAgent.Command> {
  public sealed interface Command {}

  /** Sent once the HTTP server is bound: the node's identity is known from then on. */
  public record Start(NodeIdentity identity) implements Command {}

  public record StartContainers(StartContainersRequest request, ActorRef<StartContainersResponse> replyTo)
      implements Command {}

  public record StopContainers(StopContainersRequest request, ActorRef<StopContainersResponse> replyTo)
      implements Command {}

  public record GetContainerStatuses(
      GetContainerStatusesRequest request, ActorRef<GetContainerStatusesResponse> replyTo) implements Command {}

  public record GetNodeView(ActorRef<NodeView> replyTo) implements Command {}

  /** Where a container's logs are on this node, and whose they are. */
  public record LocateContainerLogs(String containerId, ActorRef<ContainerLogLocation> replyTo) implements Command {}

  /** Stops talking to the RM and kills every container; answers once none is left. */
  public record Shutdown(ActorRef<Done> replyTo) implements Command {}

  private enum RegisterTick implements Command { INSTANCE }

  private enum HeartbeatTick implements Command { INSTANCE }

  private record RegisterAnswered(String rm, RegisterNodeResponse response) implements Command {}

  private record HeartbeatAnswered(String rm, NodeHeartbeatResponse response) implements Command {}

  private record RmCallFailed(String rm, boolean registering, Throwable error) implements Command {}

  /** @param outcome the RM's diagnostics, or why the call failed */
  private record Unregistered(String rm, String outcome) implements Command {}

  private record FromContainer(ContainerActor.Report report) implements Command {}

  private record ContainerActorStopped(String containerId) implements Command {}

  private record OverLimit(ContainersMonitor.OverLimit breach) implements Command {}
  private record HealthChecked(HealthMonitor.Status status) implements Command {}

  private static final int FINISHED_HISTORY = 1000;
  private static final int STASH_CAPACITY = 1000;

  /**
   * A failure while handling one message must not take the node (and the watch over its running
   * processes) down: the agent logs it and resumes with its state.
   */
  public static Behavior<Command> create(NmSettings settings, ContainerMonitorSettings monitor,
      NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher, Clock clock) {
    return create(settings, monitor, cleanup, rm, launcher, clock, StateRecorder.disabled());
  }

  /** @param state the state store, and what it held at start: the containers of an earlier run to take back */
  public static Behavior<Command> create(NmSettings settings, ContainerMonitorSettings monitor,
      NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher, Clock clock,
      StateRecorder state) {
    return create(settings, monitor, NmCgroupsSettings.DISABLED, cleanup, rm, launcher, clock, state,
        AuxServices.none());
  }

  /** @param aux the node's auxiliary services, started already */
  public static Behavior<Command> create(NmSettings settings, ContainerMonitorSettings monitor,
      NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher, Clock clock,
      StateRecorder state, AuxServices aux) {
    return create(settings, monitor, NmCgroupsSettings.DISABLED, cleanup, rm, launcher, clock, state, aux);
  }

  /** @param cgroups whether containers get cgroups of their own */
  public static Behavior<Command> create(NmSettings settings, ContainerMonitorSettings monitor,
      NmCgroupsSettings cgroups, NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher,
      Clock clock, StateRecorder state) {
    return create(settings, monitor, cgroups, cleanup, rm, launcher, clock, state, AuxServices.none());
  }

  /**
   * @param cgroups whether containers get cgroups of their own
   * @param aux the node's auxiliary services, started already
   */
  public static Behavior<Command> create(NmSettings settings, ContainerMonitorSettings monitor,
      NmCgroupsSettings cgroups, NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher,
      Clock clock, StateRecorder state, AuxServices aux) {
    return Behaviors.supervise(waitForStart(settings, monitor, cgroups, cleanup, rm, launcher, clock, state, aux))
        .onFailure(Exception.class, SupervisorStrategy.resume());
  }

  private static Behavior<Command> waitForStart(NmSettings settings, ContainerMonitorSettings monitor,
      NmCgroupsSettings cgroups, NmCleanupSettings cleanup, ResourceTrackerClient rm, ProcessLauncher launcher,
      Clock clock, StateRecorder state, AuxServices aux) {
    return Behaviors.withStash(STASH_CAPACITY, stash -> Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
        Behaviors.receive(Command.class)
            .onMessage(Start.class, s -> stash.unstashAll(
                new NodeAgent(ctx, timers, settings, monitor, cgroups, cleanup, rm, launcher, clock, s.identity(),
                    state, aux)))
            .onAnyMessage(m -> {
              if (stash.isFull()) ctx.getLog().warn("Dropping {}: node not started yet", m.getClass().getSimpleName());
              else stash.stash(m);
              return Behaviors.same();
            })
            .build())));
  }

  private final TimerScheduler<Command> timers;
  private final NmSettings settings;
  private final ResourceTrackerClient rm;
  private final Clock clock;
  private final NodeIdentity identity;
  private final Resource capability;
  private final String version = version();
  private final long startedAtMs;
  private final ContainerTable table = new ContainerTable(FINISHED_HISTORY);
  private final ContainerSupervisor containers;
  private final ContainerMonitorSettings monitorSettings;
  /** Null where /proc cannot be read: containers then run unmeasured, as the start-up log says. */
  private final ActorRef<ContainersMonitor.Command> monitor;
  private final ContainerUsages usages = new ContainerUsages();
  private final NodeCgroups cgroups;
  private final NmCleanupSettings cleanup;
  private final ActorRef<DeletionService.Command> deletions;
  private final StateRecorder state;
  private final ApplicationLogs appLogs;
  private final ApplicationFiles files;
  private RmSession session = new RmSession.Registering();
  /** The container-token keys the RM last handed out; they stay valid for stop and status while re-registering. */
  private NodeTokenKeys tokenKeys = NodeTokenKeys.NONE;
  /** The newest scheduler epoch heard from; answers and tokens of older schedulers are fenced off. */
  private long rmEpoch;
  /** The cluster whose epochs {@link #rmEpoch} counts; "" before one named itself. */
  private String clusterId = "";
  private Failover failover;
  private long lastRmContactMs;
  private long heartbeatsTotal;
  private long rmCallFailuresTotal;
  private boolean stopping;
  /** Stopping, and telling the RM so: the shutdown is answered once it has heard back. */
  private boolean unregistering;
  /** The node's own verdict, which every heartbeat carries. */
  private NodeHealth health;
  private final List<ActorRef<Done>> shutdownWaiters = new ArrayList<>();

  private NodeAgent(
      ActorContext<Command> ctx, TimerScheduler<Command> timers, NmSettings settings,
      ContainerMonitorSettings monitorSettings, NmCgroupsSettings cgroupSettings, NmCleanupSettings cleanup,
      ResourceTrackerClient rm, ProcessLauncher launcher, Clock clock, NodeIdentity identity, StateRecorder state,
      AuxServices aux) {
    super(ctx);
    this.state = state;
    this.cleanup = cleanup;
    this.deletions = ctx.spawn(DeletionService.create(), "deletions", DispatcherSelector.blocking());
    this.monitorSettings = monitorSettings;
    this.cgroups = NodeCgroups.start(ctx, cgroupSettings, identity.nodeId(), launcher);
    this.monitor = startMonitor(ctx, monitorSettings, cgroups, usages);
    this.timers = timers;
    this.settings = settings;
    this.rm = rm;
    this.clock = clock;
    this.identity = identity;
    this.capability = Resource.of(settings.effectiveMemoryMb(), settings.effectiveVcores());
    this.startedAtMs = clock.millis();
    // NodeManagers share one list of members: each starts at the one its id falls on, so that they
    // do not all call, or all wait on, the first.
    this.failover = Failover.over(settings.rmAddresses()).startingFor(identity.nodeId());
    ContainerLayout layout = new ContainerLayout(settings.localDirs(), settings.logDirs(), identity.nodeId());
    this.appLogs = ApplicationLogs.start(ctx, cleanup, identity.nodeId(), layout, deletions, clock);
    this.files = new ApplicationFiles(layout, cleanup, deletions, appLogs, FINISHED_HISTORY);
    files.deleteLeftovers(state.recovered().applicationIds(), clock.instant());
    this.containers = new ContainerSupervisor(
        ctx, table, cgroups.launcher(), layout, identity,
        settings.rmAddresses(), settings.killGrace(), clock,
        ctx.messageAdapter(ContainerActor.Report.class, FromContainer::new), ContainerActorStopped::new, state,
        new Localizer(layout.localDirs().stream().map(Path::getParent).toList(),
            cleanup.localizerCacheTargetMb() * 1024 * 1024, cleanup.localCacheMaxFilesPerDirectory(), clock,
            state.localizedResources()), aux);
    startHealthChecks(ctx, layout);
    ctx.getLog().info("NodeManager {} started: capability {}, work dir {}, RMs {}",
        identity.nodeId(), capability, settings.workDir().toAbsolutePath(), settings.rmAddresses());
    recover(layout);
    cgroups.removeLeftovers(table.liveContainers().stream().map(c -> c.containerId()).collect(Collectors.toSet()));
    ctx.getSelf().tell(RegisterTick.INSTANCE);
  }

  /** The directories are checked once before anything uses them; then the monitor repeats every check. */
  private void startHealthChecks(ActorContext<Command> ctx, ContainerLayout layout) {
    DiskChecker disks = new DiskChecker(layout.localDirs(), layout.logDirs(), settings.health());
    DisksHealth first = disks.check(clock.millis());
    containers.useDisks(first);
    health = NodeHealth.of(NodeHealth.healthy(startedAtMs), first.health());
    if (!health.healthy()) ctx.getLog().warn("NodeManager {} starts unhealthy: {}", identity.nodeId(), health.report());
    ctx.spawn(Behaviors.supervise(HealthMonitor.create(settings.health(), disks, first, clock,
            ctx.messageAdapter(HealthMonitor.Status.class, HealthChecked::new)))
        .onFailure(SupervisorStrategy.restart()), "health");
  }

  /**
   * Takes back what the state store held before registering, so that the registration reports
   * every container: those still running are watched again, those that ended meanwhile report
   * their end, and the applications the RM had said ended are cleaned up again.
   */
  private void recover(ContainerLayout layout) {
    if (!state.enabled()) return;
    var stored = state.recovered();
    stored.applications().forEach(a -> files.recovered(a.applicationId(), a.user()));
    stored.containers().forEach(c -> files.containerDirs(c.applicationId(), Path.of(c.workDir()), Path.of(c.logDir())));
    ContainerRecovery.Host host = ContainerRecovery.Host.linux();
    stored.containers().forEach(c -> containers.recover(cgroups.recovered(ContainerRecovery.of(c, host))));
    stored.applications().stream().filter(a -> a.ended()).forEach(a -> cleanUpApplication(a.applicationId()));
    getContext().getLog().info("NodeManager {} recovered {} containers ({} running) of {} applications",
        identity.nodeId(), stored.containers().size(), table.liveCount(), stored.applications().size());
  }

  private static ActorRef<ContainersMonitor.Command> startMonitor(ActorContext<Command> ctx,
      ContainerMonitorSettings settings, NodeCgroups cgroups, ContainerUsages usages) {
    if (!ProcFs.available()) {
      ctx.getLog().warn("No readable /proc on this host: containers' memory is not measured, and no container is "
          + "killed for exceeding it");
      return null;
    }
    boolean byKernel = cgroups.enforcesMemory();
    ctx.getLog().info("Container monitor: every {} ms, physical memory {}, virtual memory {} (ratio {}); "
            + "limits are enforced by measuring process trees, {}", settings.interval().toMillis(),
        byKernel ? "measured only" : settings.pmemCheckEnabled() ? "enforced" : "measured only",
        settings.vmemCheckEnabled() ? "enforced" : "measured only", settings.vmemPmemRatio(),
        byKernel ? "physical memory by the kernel through cgroups" : "not by cgroups");
    return ctx.spawn(ContainersMonitor.create(settings, ContainersMonitor.Proc.linux(), cgroups::memoryUsage, usages,
        ctx.messageAdapter(ContainersMonitor.OverLimit.class, OverLimit::new)), "containers-monitor",
        DispatcherSelector.blocking());
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(StartContainers.class, this::onStartContainers)
        .onMessage(StopContainers.class, this::onStopContainers)
        .onMessage(GetContainerStatuses.class, this::onGetStatuses)
        .onMessage(GetNodeView.class, this::onGetNodeView)
        .onMessage(LocateContainerLogs.class, this::onLocateContainerLogs)
        .onMessage(Shutdown.class, this::onShutdown)
        .onMessageEquals(RegisterTick.INSTANCE, this::onRegisterTick)
        .onMessageEquals(HeartbeatTick.INSTANCE, this::onHeartbeatTick)
        .onMessage(RegisterAnswered.class, this::onRegisterAnswered)
        .onMessage(HeartbeatAnswered.class, this::onHeartbeatAnswered)
        .onMessage(RmCallFailed.class, this::onRmCallFailed)
        .onMessage(Unregistered.class, this::onUnregistered)
        .onMessage(FromContainer.class, this::onContainerReport)
        .onMessage(ContainerActorStopped.class, this::onContainerActorStopped)
        .onMessage(OverLimit.class, this::onOverLimit)
        .onMessage(HealthChecked.class, this::onHealthChecked)
        .onMessage(Start.class, s -> this)
        .build();
  }

  // --- container management, answered from the current state ---

  private Behavior<Command> onStartContainers(StartContainers cmd) {
    Tokens.KeyLookup keys = session instanceof RmSession.Registered && !stopping
        ? tokenKeys.forStart(clock.millis()) : null;
    cmd.replyTo().tell(containers.start(cmd.request(), keys, rmEpoch));
    return this;
  }

  private Behavior<Command> onStopContainers(StopContainers cmd) {
    cmd.replyTo().tell(containers.stop(cmd.request(), tokenKey()));
    return this;
  }

  private Behavior<Command> onGetStatuses(GetContainerStatuses cmd) {
    cmd.replyTo().tell(containers.statuses(cmd.request(), tokenKey()));
    return this;
  }

  private Tokens.KeyLookup tokenKey() {
    return tokenKeys.isEmpty() ? null : tokenKeys.forManagement();
  }

  private Behavior<Command> onGetNodeView(GetNodeView cmd) {
    cmd.replyTo().tell(new NodeView(
        identity, version, linkState(), failover.current(), startedAtMs, lastRmContactMs, capability,
        table.allocated(), table.allContainers(), files.ended(), table.launchedTotal(),
        table.completedTotal(), heartbeatsTotal, rmCallFailuresTotal, health, usages));
    return this;
  }

  private Behavior<Command> onLocateContainerLogs(LocateContainerLogs cmd) {
    cmd.replyTo().tell(appLogs.locate(cmd.containerId(), table.find(cmd.containerId())));
    return this;
  }

  private RmLinkState linkState() {
    if (stopping) return RmLinkState.STOPPING;
    if (session instanceof RmSession.Registered) return RmLinkState.REGISTERED;
    if (session instanceof RmSession.Ended) return RmLinkState.SHUT_DOWN_BY_RM;
    return RmLinkState.REGISTERING;
  }

  private Behavior<Command> onShutdown(Shutdown cmd) {
    boolean registered = session instanceof RmSession.Registered;
    timers.cancelAll();
    session = new RmSession.Ended("NodeManager stopping");
    stopping = true;
    shutdownWaiters.add(cmd.replyTo());
    if (state.settings().keepsContainersOnStop()) {
      getContext().getLog().info("NodeManager {} stopping: leaving {} containers running for the next NodeManager "
          + "to recover (bobbin.nm.recovery.supervised)", identity.nodeId(), table.liveCount());
      shutdownWaiters.forEach(w -> w.tell(Done.getInstance()));
      shutdownWaiters.clear();
      return this;
    }
    getContext().getLog().info("NodeManager {} stopping: killing {} containers", identity.nodeId(), table.liveCount());
    if (registered) unregister();
    table.liveContainers().forEach(c -> containers.kill(c.containerId(), KillReason.NODE_SHUTDOWN));
    answerShutdownIfDone();
    return this;
  }

  /**
   * As YARN's NodeManager stopping gracefully: the RM hears it at once and marks the node SHUTDOWN,
   * rather than finding it LOST after the liveness expiry. Not when a supervised recovery leaves the
   * containers running: the node is expected back.
   */
  private void unregister() {
    String address = failover.current();
    unregistering = true;
    getContext().pipeToSelf(rm.unregister(address, new UnregisterNodeRequest(identity.nodeId())), (resp, err) ->
        new Unregistered(address, err != null ? CallException.of(err).getMessage() : resp.diagnostics()));
  }

  private Behavior<Command> onUnregistered(Unregistered msg) {
    getContext().getLog().info("NodeManager {} unregistered from RM {}{}", identity.nodeId(), msg.rm(),
        msg.outcome().isEmpty() ? "" : ": " + msg.outcome());
    unregistering = false;
    answerShutdownIfDone();
    return this;
  }

  private void answerShutdownIfDone() {
    if (stopping && !unregistering && table.liveCount() == 0) {
      shutdownWaiters.forEach(w -> w.tell(Done.getInstance()));
      shutdownWaiters.clear();
    }
  }

  // --- registration and heartbeats ---

  private Behavior<Command> onRegisterTick() {
    if (!(session instanceof RmSession.Registering)) return this;
    String address = failover.current();
    // As in YARN, every application not yet cleaned up here: the RM learns which nodes to tell when it ends.
    Set<String> running = table.applications();
    running.addAll(state.runningApplications());
    running.removeAll(files.ended());
    RegisterNodeRequest request = new RegisterNodeRequest(
        identity.nodeId(), identity.host(), identity.port(), identity.httpAddress(), settings.rack(), capability,
        table.statusesToReport(), List.copyOf(running), version);
    getContext().pipeToSelf(rm.register(address, request), (resp, err) ->
        err == null ? new RegisterAnswered(address, resp) : new RmCallFailed(address, true, err));
    return this;
  }

  private Behavior<Command> onHeartbeatTick() {
    if (!(session instanceof RmSession.Registered reg)) return this;
    String address = failover.current();
    NodeHeartbeatRequest request = new NodeHeartbeatRequest(
        identity.nodeId(), reg.lastResponseId(), table.statusesToReport(), health.healthy(), health.report(),
        tokenKeys.newestKeyId(), health.checkedAt());
    getContext().pipeToSelf(rm.heartbeat(address, request), (resp, err) ->
        err == null ? new HeartbeatAnswered(address, resp) : new RmCallFailed(address, false, err));
    return this;
  }

  private Behavior<Command> onRegisterAnswered(RegisterAnswered msg) {
    if (!(session instanceof RmSession.Registering)) return this;
    RegisterNodeResponse resp = msg.response();
    NodeAction action = resp == null || resp.nodeAction() == null ? NodeAction.NORMAL : resp.nodeAction();
    if (resp == null || action == NodeAction.RESYNC) {
      return retryLater(msg.rm(), true, "unexpected registration answer " + (resp == null ? "null" : action), false);
    }
    markRmContact();
    if (action == NodeAction.SHUTDOWN) return shutDownByRm(msg.rm(), resp.diagnostics());
    boolean otherCluster = isOtherCluster(resp.clusterId());
    if (otherCluster) {
      getContext().getLog().warn("NodeManager {} registered with cluster {} through RM {}, no longer with cluster {}: "
          + "its scheduler epochs and container-token keys count from now on, those of the cluster before do not",
          identity.nodeId(), resp.clusterId(), msg.rm(), clusterId);
    }
    NodeTokenKeys keys = (otherCluster ? NodeTokenKeys.NONE : tokenKeys).handedOut(resp.containerTokenKeys());
    if (keys.isEmpty()) {
      return retryLater(msg.rm(), true, "registration answer without a usable container-token key", false);
    }
    Duration interval = resp.heartbeatIntervalMs() > 0
        ? Duration.ofMillis(resp.heartbeatIntervalMs()) : settings.heartbeatInterval();
    session = new RmSession.Registered(resp.rmIdentifier(), 0, interval);
    tokenKeys = keys;
    rmEpoch = otherCluster ? resp.rmEpoch() : Math.max(rmEpoch, resp.rmEpoch());
    if (!resp.clusterId().isEmpty()) clusterId = resp.clusterId();
    getContext().getLog().info("NodeManager {} registered with RM {}: capability {}, {} containers reported, "
        + "heartbeat every {} ms", identity.nodeId(), msg.rm(), capability, table.statusesToReport().size(),
        interval.toMillis());
    timers.startSingleTimer(HeartbeatTick.INSTANCE, Duration.ZERO);
    return this;
  }

  private Behavior<Command> onHeartbeatAnswered(HeartbeatAnswered msg) {
    if (!(session instanceof RmSession.Registered reg)) return this;
    NodeHeartbeatResponse resp = msg.response();
    if (resp == null) return retryLater(msg.rm(), false, "empty heartbeat answer", true);
    if (isOtherCluster(resp.clusterId())) {
      // The cluster was replaced (a new journal): its epochs start again, so they say nothing about
      // this one's. Register with it from scratch, reporting every container; it decides their fate.
      getContext().getLog().warn("NodeManager {}: RM {} answers for cluster {}, not cluster {} that this node "
          + "follows: registering with it from scratch", identity.nodeId(), msg.rm(), resp.clusterId(), clusterId);
      session = new RmSession.Registering();
      timers.startSingleTimer(RegisterTick.INSTANCE, Duration.ZERO);
      return this;
    }
    if (resp.rmEpoch() > 0 && resp.rmEpoch() < rmEpoch) {
      // A scheduler the cluster has replaced: obey none of its orders and look for the new one.
      return retryLater(msg.rm(), false, "answer from scheduler epoch " + resp.rmEpoch() + ", older than "
          + rmEpoch, true);
    }
    rmEpoch = Math.max(rmEpoch, resp.rmEpoch());
    markRmContact();
    heartbeatsTotal++;
    NodeAction action = resp.nodeAction() == null ? NodeAction.NORMAL : resp.nodeAction();
    switch (action) {
      case SHUTDOWN -> {
        return shutDownByRm(msg.rm(), resp.diagnostics());
      }
      case RESYNC -> {
        getContext().getLog().info("NodeManager {} told to resync by RM {} ({}): re-registering with {} containers, "
            + "keeping them running", identity.nodeId(), msg.rm(), resp.diagnostics(), table.statusesToReport().size());
        session = new RmSession.Registering();
        timers.startSingleTimer(RegisterTick.INSTANCE, Duration.ZERO);
        return this;
      }
      case NORMAL -> {
        RmSession.Registered next = reg.next(resp.responseId(), resp.nextHeartbeatIntervalMs());
        session = next;
        if (!resp.containerTokenKeys().isEmpty()) {
          tokenKeys = tokenKeys.handedOut(resp.containerTokenKeys());
          getContext().getLog().info("NodeManager {}: container-token keys {} from RM {}", identity.nodeId(),
              tokenKeys.currentIds(), msg.rm());
        }
        containers.acknowledge(resp.containersToBeRemovedFromNm());
        resp.containersToCleanup().forEach(id -> containers.kill(id, KillReason.BY_RESOURCEMANAGER));
        resp.applicationsToCleanup().forEach(this::cleanUpApplication);
        timers.startSingleTimer(HeartbeatTick.INSTANCE, next.interval());
        return this;
      }
    }
    return this;
  }

  /** Whether {@code answered} names a cluster other than the one this node follows (both known). */
  private boolean isOtherCluster(String answered) {
    return !answered.isEmpty() && !clusterId.isEmpty() && !answered.equals(clusterId);
  }

  private void cleanUpApplication(String applicationId) {
    if (files.end(applicationId)) {
      state.applicationEnded(applicationId);
      List<String> live = table.liveContainersOf(applicationId);
      getContext().getLog().info("application finished appId={}: killing {} containers", applicationId, live.size());
      live.forEach(id -> containers.kill(id, KillReason.AFTER_APP_COMPLETION));
      deleteDirsIfDone(applicationId);
    }
  }

  private Behavior<Command> shutDownByRm(String address, String diagnostics) {
    session = new RmSession.Ended(diagnostics);
    timers.cancel(HeartbeatTick.INSTANCE);
    timers.cancel(RegisterTick.INSTANCE);
    getContext().getLog().warn("NodeManager {} told to shut down by RM {}: {}. No more heartbeats; containers "
        + "keep running until the NodeManager is stopped", identity.nodeId(), address, diagnostics);
    return this;
  }

  private Behavior<Command> onRmCallFailed(RmCallFailed msg) {
    if (session instanceof RmSession.Ended) return this;
    CallException failure = CallException.of(msg.error());
    return retryLater(msg.rm(), msg.registering(), failure.getMessage(), failover.afterFailure(failure));
  }

  private Behavior<Command> retryLater(String address, boolean registering, String why, boolean tryAnotherMember) {
    return retryLater(address, registering, why, failover.afterFailure(tryAnotherMember));
  }

  /** @param next where to try next, and how soon */
  private Behavior<Command> retryLater(String address, boolean registering, String why, Failover next) {
    rmCallFailuresTotal++;
    failover = next;
    Duration delay = failover.retryDelay();
    getContext().getLog().warn("NodeManager {}: {} with RM {} failed ({}); next try with {} in {} ms",
        identity.nodeId(), registering ? "registration" : "heartbeat", address, why, failover.current(),
        delay.toMillis());
    timers.startSingleTimer(registering ? RegisterTick.INSTANCE : HeartbeatTick.INSTANCE, delay);
    return this;
  }

  private void markRmContact() {
    failover = failover.afterSuccess();
    lastRmContactMs = clock.millis();
  }

  // --- container lifecycle reports ---

  private void deleteDirsIfDone(String applicationId) {
    if (!files.due(applicationId, !table.liveContainersOf(applicationId).isEmpty())) return;
    containers.applicationEnded(applicationId);
    files.delete(applicationId);
  }

  private Behavior<Command> onContainerReport(FromContainer msg) {
    var container = table.find(msg.report().containerId());
    container.ifPresent(c -> files.ran(c.applicationId(), c.user(), c.workDir(), c.logDir()));
    if (msg.report() instanceof ContainerActor.Launched l) {
      containers.launched(l.containerId(), l.pid());
      cgroups.launched(l.containerId(), l.pid());
      if (monitor != null) {
        container.ifPresent(c -> monitor.tell(new ContainersMonitor.Watch(l.containerId(), l.pid(),
            MemoryLimit.of(c.resource().memory(), monitorSettings.vmemPmemRatio(),
                monitorSettings.pmemCheckEnabled() && !cgroups.enforcesMemory(), monitorSettings.vmemCheckEnabled()))));
      }
    } else if (msg.report() instanceof ContainerActor.Finished reported) {
      ContainerActor.Finished f = cgroups.ended(reported);
      if (monitor != null) monitor.tell(new ContainersMonitor.Unwatch(f.containerId()));
      containers.finished(f.containerId(), f.exitStatus(), f.diagnostics(), f.killed());
      container.ifPresent(c -> deleteDirsIfDone(c.applicationId()));
      answerShutdownIfDone();
    }
    return this;
  }

  private Behavior<Command> onOverLimit(OverLimit msg) {
    var breach = msg.breach();
    KillReason reason = breach.exitStatus() == ExitStatus.KILLED_EXCEEDED_VMEM
        ? KillReason.EXCEEDED_VMEM : KillReason.EXCEEDED_PMEM;
    containers.kill(breach.containerId(), reason, breach.diagnostics());
    return this;
  }

  private Behavior<Command> onContainerActorStopped(ContainerActorStopped msg) {
    if (table.findLive(msg.containerId()).isPresent()) {
      getContext().getLog().error("container monitor stopped without a result containerId={}", msg.containerId());
      containers.finished(msg.containerId(), ExitStatus.INVALID, "Container monitor stopped unexpectedly", false);
      answerShutdownIfDone();
    }
    containers.forget(msg.containerId());
    return this;
  }

  // --- health ---

  private Behavior<Command> onHealthChecked(HealthChecked msg) {
    NodeHealth now = msg.status().health();
    if (now.healthy() != health.healthy()) {
      if (now.healthy()) getContext().getLog().info("NodeManager {} is healthy again", identity.nodeId());
      else getContext().getLog().warn("NodeManager {} is unhealthy: {}", identity.nodeId(), now.report());
    }
    health = now;
    for (Path stale : containers.useDisks(msg.status().disks())) {
      deletions.tell(new DeletionService.DeleteAfter(stale, Duration.ZERO));
    }
    return this;
  }

  /** The NodeManager's version, from its jar; the development version when run from classes. */
  static String version() {
    String v = NodeAgent.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }
}
