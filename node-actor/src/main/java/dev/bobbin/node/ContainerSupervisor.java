package dev.bobbin.node;

import dev.bobbin.node.ContainerTokenCheck.Refused;
import dev.bobbin.node.ContainerTokenCheck.Valid;
import dev.bobbin.node.ContainerTokenCheck.Verdict;
import dev.bobbin.node.container.ContainerActor;
import dev.bobbin.node.container.ContainerLayout;
import dev.bobbin.node.container.ContainerRecord;
import dev.bobbin.node.container.ContainerTable;
import dev.bobbin.node.container.KillReason;
import dev.bobbin.node.container.LaunchScript;
import dev.bobbin.node.container.LaunchSpec;
import dev.bobbin.node.container.ProcessLauncher;
import dev.bobbin.node.health.DisksHealth;
import dev.bobbin.node.container.ReattachedProcess;
import dev.bobbin.node.recovery.ContainerRecovery;
import dev.bobbin.node.recovery.StateRecorder;
import dev.bobbin.node.recovery.StoredContainer;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.Tokens.ContainerTokenIdentifier;
import dev.bobbin.protocol.node.ContainerManagement.FailedRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesRequest;
import dev.bobbin.protocol.node.ContainerManagement.GetContainerStatusesResponse;
import dev.bobbin.protocol.node.ContainerManagement.StartContainerRequest;
import dev.bobbin.protocol.LocalResource;
import dev.bobbin.node.aux.AuxServices;
import dev.bobbin.node.aux.ContainerStart;
import dev.bobbin.node.localizer.Localizer;
import dev.bobbin.node.localizer.LocalizingLauncher;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StartContainersResponse;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersRequest;
import dev.bobbin.protocol.node.ContainerManagement.StopContainersResponse;
import java.time.Clock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The container-management half of the node actor: checks tokens, spawns one {@link
 * ContainerActor} per accepted container, forwards kills and records outcomes in the table. Used
 * only from inside the node actor.
 */
final class ContainerSupervisor {
  static final String NOT_READY = "NMNotYetReadyException";
  static final String YARN_EXCEPTION = "YarnException";
  static final String INVALID_AUX_SERVICE = "InvalidAuxServiceException";

  private final ActorContext<NodeAgent.Command> ctx;
  private final ContainerTable table;
  private final ProcessLauncher launcher;
  private final ContainerLayout layout;
  private final NodeIdentity identity;
  private final LaunchScript.NodeFacts facts;
  private final Duration killGrace;
  private final Clock clock;
  private final ActorRef<ContainerActor.Report> reports;
  private final Function<String, NodeAgent.Command> onActorStopped;
  private final StateRecorder state;
  private final Localizer localizer;
  private final AuxServices aux;
  /** The service data each live container was started with, for the services' stop calls. */
  private final Map<String, Map<String, String>> serviceData = new HashMap<>();
  /** The cached resources of containers taken back after a restart, held until their actors stop. */
  private final Map<String, Localizer.Lease> reattachedResources = new HashMap<>();
  private final Map<String, ActorRef<ContainerActor.Command>> actors = new HashMap<>();
  /** The latest directory check: new containers go to its good directories. */
  private DisksHealth disks;
  /**
   * Containers the RM told this node to kill before any start request reached it: the RM may have
   * released an allocation whose AM (or the RM's own AM launcher) is starting it right now. A
   * later start is refused, so the RM can free the space once this node has heard the kill.
   */
  private final Map<String, Boolean> killedBeforeStart = new java.util.LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > KILLED_BEFORE_START_KEPT;
    }
  };
  static final int KILLED_BEFORE_START_KEPT = 10_000;

  ContainerSupervisor(
      ActorContext<NodeAgent.Command> ctx, ContainerTable table, ProcessLauncher launcher, ContainerLayout layout,
      NodeIdentity identity, List<String> rmAddresses, Duration killGrace, Clock clock,
      ActorRef<ContainerActor.Report> reports, Function<String, NodeAgent.Command> onActorStopped,
      StateRecorder state, Localizer localizer, AuxServices aux) {
    this.ctx = ctx;
    this.aux = aux;
    this.localizer = localizer;
    this.table = table;
    this.launcher = launcher;
    this.layout = layout;
    this.identity = identity;
    this.facts = new LaunchScript.NodeFacts(
        identity.host(), identity.port(), System.getProperty("java.home"), rmAddresses);
    this.killGrace = killGrace;
    this.clock = clock;
    this.reports = reports;
    this.onActorStopped = onActorStopped;
    this.state = state;
    this.disks = DisksHealth.unchecked(layout.localDirs(), layout.logDirs(), 0);
  }

  /** The application's local directory is about to go, and with it its APPLICATION resources. */
  void applicationEnded(String applicationId) {
    localizer.applicationEnded(applicationId);
    aux.applicationStopped(applicationId);
  }

  /** @return cached copies to delete: those forgotten on a local directory that is good again */
  List<Path> useDisks(DisksHealth latest) {
    disks = latest;
    return localizer.useDisks(latest.goodLocalDirs().stream().map(Path::getParent).toList());
  }

  /**
   * @param keys the container-token keys that start containers now, or null while the node may not start any
   * @param minEpoch the highest scheduler epoch this node has heard from; older tokens are fenced off
   */
  StartContainersResponse start(StartContainersRequest request, Tokens.KeyLookup keys, long minEpoch) {
    List<String> started = new ArrayList<>();
    List<FailedRequest> failed = new ArrayList<>();
    for (StartContainerRequest r : request.requests()) {
      if (keys == null) {
        failed.add(new FailedRequest(null, NOT_READY,
            "Rejecting new containers as NodeManager has not yet connected with ResourceManager"));
        continue;
      }
      if (r == null) {
        failed.add(new FailedRequest(null, YARN_EXCEPTION, "Empty start request"));
        continue;
      }
      Verdict verdict = ContainerTokenCheck.forStart(r.containerToken(), keys, identity.nodeId(), clock.millis(), minEpoch);
      if (verdict instanceof Refused refused) {
        ctx.getLog().warn("container start refused containerId={} reason={}",
            refused.failure().containerId(), refused.failure().message());
        failed.add(refused.failure());
      } else if (verdict instanceof Valid valid) {
        FailedRequest problem = launch(valid.identifier(), r.launchContext());
        if (problem == null) started.add(valid.identifier().containerId());
        else failed.add(problem);
      }
    }
    return new StartContainersResponse(started, failed, aux.metadata());
  }

  private FailedRequest launch(ContainerTokenIdentifier token, ContainerLaunchContext context) {
    String containerId = token.containerId();
    if (table.knows(containerId)) {
      return new FailedRequest(containerId, YARN_EXCEPTION, "Container " + containerId + " already is running on this node");
    }
    if (killedBeforeStart.containsKey(containerId)) {
      return new FailedRequest(containerId, YARN_EXCEPTION,
          "Container " + containerId + " was killed by the ResourceManager before it started");
    }
    String applicationId = Ids.applicationIdOfContainer(containerId);
    if (!disks.usable()) return failOnDisks(token, applicationId);
    ContainerLayout.Dirs dirs = layout.dirsFor(
        token.user(), applicationId, containerId, disks.goodLocalDirs(), disks.goodLogDirs());
    Map<String, LocalResource> resources = context == null ? Map.of() : context.localResources();
    Map<String, String> data = context == null ? Map.of() : context.serviceData();
    String auxRefusal = aux.refusal(data);
    if (auxRefusal != null) return new FailedRequest(containerId, INVALID_AUX_SERVICE, auxRefusal);
    ContainerStart auxView = new ContainerStart(containerId, applicationId, token.user(), token.resource(),
        dirs.workDir(), dirs.appLocalDir(), null);
    LaunchSpec spec;
    try {
      spec = LaunchScript.plan(containerId, applicationId, token.user(), token.resource(),
          withAuxEnvironment(context == null ? new ContainerLaunchContext(List.of(), Map.of()) : context,
              aux.environment(auxView, data)), dirs, facts, System.getenv());
    } catch (IllegalArgumentException e) {
      return new FailedRequest(containerId, YARN_EXCEPTION, e.getMessage());
    }
    ContainerRecord created =
        ContainerRecord.created(containerId, applicationId, token.user(), token.resource(), dirs, clock.millis());
    try {
      state.accepted(created);
    } catch (IOException e) {
      ctx.getLog().error("container refused containerId={}: cannot record it in the state store: {}", containerId,
          e.toString());
      return new FailedRequest(containerId, YARN_EXCEPTION,
          "Container " + containerId + " cannot be recorded in the NodeManager's state store: " + e.getMessage());
    }
    table.add(created);
    ProcessLauncher localizing = resources.isEmpty() ? launcher
        : new LocalizingLauncher(localizer, dirs.appLocalDir(), resources, launcher);
    serviceData.put(containerId, data);
    aux.containerAccepted(auxView, data);
    spawn(containerId, ContainerActor.create(spec, localizing, killGrace, reports));
    ctx.getLog().info("container accepted containerId={} appId={} user={} resource={}",
        containerId, applicationId, token.user(), token.resource());
    return null;
  }

  /** The context with what the auxiliary services give the container, under its own entries. */
  private static ContainerLaunchContext withAuxEnvironment(ContainerLaunchContext context, Map<String, String> env) {
    if (env.isEmpty()) return context;
    Map<String, String> merged = new HashMap<>(env);
    merged.putAll(context.environment());
    return context.withEnvironment(merged);
  }

  /**
   * As YARN's container launch: with too few good directories the container is accepted and ends at
   * once with DISKS_FAILED, so that its AM hears why and asks again elsewhere.
   */
  private FailedRequest failOnDisks(ContainerTokenIdentifier token, String applicationId) {
    String containerId = token.containerId();
    String diagnostics = "Most of the disks failed. " + disks.health().report();
    table.add(ContainerRecord.created(containerId, applicationId, token.user(), token.resource(),
        layout.dirsFor(token.user(), applicationId, containerId), clock.millis()));
    table.finish(containerId, ExitStatus.DISKS_FAILED, diagnostics, false, clock.millis());
    ctx.getLog().warn("container failed on disks containerId={} appId={} exitStatus={} diagnostics={}",
        containerId, applicationId, ExitStatus.DISKS_FAILED, diagnostics);
    return null;
  }

  private void spawn(String containerId, Behavior<ContainerActor.Command> behavior) {
    ActorRef<ContainerActor.Command> actor = ctx.spawn(behavior, containerId, DispatcherSelector.blocking());
    ctx.watchWith(actor, onActorStopped.apply(containerId));
    actors.put(containerId, actor);
  }

  /**
   * Takes back a container an earlier NodeManager on this node recorded: watches its process again
   * (going on with a kill asked for then), records the end it had meanwhile, or keeps reporting
   * the end recorded until the RM acknowledges it.
   */
  void recover(ContainerRecovery.Outcome outcome) {
    StoredContainer stored = outcome.stored();
    String containerId = stored.containerId();
    table.restore(stored.record());
    if (outcome instanceof ContainerRecovery.Running r) {
      LaunchSpec spec = new LaunchSpec(containerId, stored.applicationId(), stored.user(), stored.resource(), Map.of(),
          List.of(), stored.record().workDir(), stored.record().logDir());
      reattachedResources.put(containerId, localizer.holdLinked(spec.workDir()));
      spawn(containerId, ContainerActor.reattach(spec, new ReattachedProcess(r.process(), spec.workDir(), containerId),
          killGrace, state.settings().processCheckInterval(), reports));
      if (stored.killReason() != null) kill(containerId, stored.killReason(), stored.killDiagnostics());
    } else if (outcome instanceof ContainerRecovery.Ended e) {
      ctx.getLog().info("container ended while the NodeManager was down containerId={} exitStatus={}", containerId,
          e.exitStatus());
      finished(containerId, e.exitStatus(), e.diagnostics(), e.killed());
    }
  }

  /** Its process runs: recorded before the container counts as running. */
  void launched(String containerId, long pid) {
    state.launched(containerId, pid);
    table.markRunning(containerId);
  }

  /** The RM has recorded these completions. */
  void acknowledge(Collection<String> containerIds) {
    table.acknowledge(containerIds);
    state.acknowledged(containerIds);
  }

  StopContainersResponse stop(StopContainersRequest request, Tokens.KeyLookup keys) {
    List<String> stopped = new ArrayList<>();
    List<FailedRequest> failed = new ArrayList<>();
    for (String token : request.containerTokens()) {
      String containerId = checkKnown(token, keys, failed);
      if (containerId == null) continue;
      kill(containerId, KillReason.BY_APPMASTER);
      stopped.add(containerId);
    }
    return new StopContainersResponse(stopped, failed);
  }

  GetContainerStatusesResponse statuses(GetContainerStatusesRequest request, Tokens.KeyLookup keys) {
    List<ContainerStatus> statuses = new ArrayList<>();
    List<FailedRequest> failed = new ArrayList<>();
    for (String token : request.containerTokens()) {
      String containerId = checkKnown(token, keys, failed);
      if (containerId != null) table.find(containerId).ifPresent(r -> statuses.add(r.toStatus()));
    }
    return new GetContainerStatusesResponse(statuses, failed);
  }

  /** The container id of a valid token naming a container this node knows; otherwise records why not. */
  private String checkKnown(String token, Tokens.KeyLookup keys, List<FailedRequest> failed) {
    if (keys == null) {
      failed.add(new FailedRequest(null, NOT_READY, "NodeManager has not yet registered with a ResourceManager"));
      return null;
    }
    Verdict verdict = ContainerTokenCheck.forManagement(token, keys, identity.nodeId());
    if (verdict instanceof Refused refused) {
      failed.add(refused.failure());
      return null;
    }
    String containerId = ((Valid) verdict).identifier().containerId();
    if (table.find(containerId).isEmpty()) {
      failed.add(new FailedRequest(containerId, YARN_EXCEPTION,
          "Container " + containerId + " is not handled by this NodeManager"));
      return null;
    }
    return containerId;
  }

  /** Kills a live container; a finished or unknown one is left alone. */
  void kill(String containerId, KillReason reason) {
    kill(containerId, reason, reason.diagnostics());
  }

  /** @param diagnostics what its end reports, in place of the reason's own */
  void kill(String containerId, KillReason reason, String diagnostics) {
    ActorRef<ContainerActor.Command> actor = actors.get(containerId);
    if (actor == null && !table.knows(containerId) && reason == KillReason.BY_RESOURCEMANAGER) {
      killedBeforeStart.put(containerId, Boolean.TRUE);
      return;
    }
    if (actor == null || table.findLive(containerId).isEmpty()) return;
    table.markKilling(containerId);
    state.killing(containerId, reason, diagnostics);
    actor.tell(new ContainerActor.Kill(reason, diagnostics));
  }

  void finished(String containerId, int exitStatus, String diagnostics, boolean killed) {
    table.finish(containerId, exitStatus, diagnostics, killed, clock.millis()).ifPresent(done -> {
      state.completed(done);
      aux.containerStopped(new ContainerStart(containerId, done.applicationId(), done.user(), done.resource(),
          done.workDir(), done.workDir().getParent(), null), serviceData.getOrDefault(containerId, Map.of()));
    });
    serviceData.remove(containerId);
  }

  void forget(String containerId) {
    actors.remove(containerId);
    Localizer.Lease held = reattachedResources.remove(containerId);
    if (held != null) localizer.release(held);
  }
}
