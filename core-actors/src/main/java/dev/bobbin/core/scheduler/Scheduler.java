package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.AllocationPlan;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.NodeView;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.pattern.StatusReply;

/**
 * The scheduler of one partition (a cluster singleton). It keeps an in-memory model of nodes,
 * applications' outstanding asks and containers, asks the policy for placements, and makes each
 * placement durable in its Container entity before the AM sees it. Placements in flight count as
 * used, so a node is never over-committed while writes are pending.
 */
public final class Scheduler extends AbstractBehavior<Scheduler.Command> {

  public sealed interface Command extends CborSerializable {}

  // From entities, after their events are durable.
  public record AttemptAdded(
      String appId, String attemptId, String queue, String user, int priority, Resource amResource,
      ContainerLaunchContext amLaunch, long submitTime) implements Command {}

  public record AttemptEnded(String appId, String attemptId) implements Command {}

  public record AppEnded(String appId, AppState state) implements Command {}

  // From the NM and AM protocol routes.
  public record NodeRegistered(
      NodeEntity.Registration registration, List<ContainerStatus> containers, ActorRef<Done> replyTo)
      implements Command {}

  public record NodeHeartbeat(NodeHeartbeatRequest request, ActorRef<NodeHeartbeatResponse> replyTo)
      implements Command {}

  public record AmRegistered(String attemptId, ActorRef<AmOutcome<RegisterAmResponse>> replyTo)
      implements Command {}

  public record Allocate(String attemptId, AllocateRequest request, ActorRef<AmOutcome<AllocateResponse>> replyTo)
      implements Command {}

  /** A reply to an AM call: a response, or YARN's exception name and message. */
  public record AmOutcome<T>(T response, String exception, String message) implements CborSerializable {
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

  // Internal.
  record Tick() implements Command {}

  record EpochLoaded(long epoch) implements Command {}

  record AllocationDone(String containerId, String error) implements Command {}

  record CompletionDone(String containerId, ContainerStatus status, String error) implements Command {}

  public record AmLaunchFailed(String containerId, String diagnostics) implements Command {}

  public static Behavior<Command> create(SchedulerDeps deps) {
    return Behaviors.withStash(10_000, stash -> Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      ActorRef<EpochEntity.Next> epochs = ctx.spawn(EpochEntity.create("default"), "epoch");
      epochs.tell(new EpochEntity.Next(ctx.messageAdapter(Long.class, EpochLoaded::new)));
      return Behaviors.receive(Command.class)
          .onMessage(EpochLoaded.class, m -> {
            ctx.getLog().info("Scheduler starting with epoch {}", m.epoch());
            timers.startTimerWithFixedDelay(new Tick(), deps.settings().allocationInterval());
            return stash.unstashAll(new Scheduler(ctx, deps, m.epoch()));
          })
          .onAnyMessage(m -> {
            stash.stash(m);
            return Behaviors.same();
          })
          .build();
    })));
  }

  private final SchedulerDeps deps;
  private final long epoch;
  private final Map<String, SchedNode> nodes = new LinkedHashMap<>();
  private final Map<String, SchedApp> apps = new LinkedHashMap<>();
  private final Map<String, SchedApp> appsByAttempt = new HashMap<>();
  private final Map<String, SchedContainer> containers = new HashMap<>();
  private long containersAllocated;

  private Scheduler(ActorContext<Command> ctx, SchedulerDeps deps, long epoch) {
    super(ctx);
    this.deps = deps;
    this.epoch = epoch;
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
        .onMessage(Tick.class, m -> { expireNodes(); schedule(); return this; })
        .onMessage(AllocationDone.class, this::onAllocationDone)
        .onMessage(CompletionDone.class, this::onCompletionDone)
        .onMessage(AmLaunchFailed.class, m -> {
          completeContainer(m.containerId(), ExitStatus.INVALID, m.diagnostics(), null);
          return this;
        })
        .onMessage(EpochLoaded.class, m -> this)
        .build();
  }

  // Applications

  private Behavior<Command> onAttemptAdded(AttemptAdded m) {
    SchedApp app = apps.get(m.appId());
    if (app == null) {
      app = new SchedApp(m.appId(), m.queue(), m.user(), m.priority(), m.submitTime(), m.amResource(), m.amLaunch());
      apps.put(m.appId(), app);
    } else if (m.attemptId().equals(app.attemptId)) {
      return this;
    }
    if (app.attemptId != null) appsByAttempt.remove(app.attemptId);
    app.startAttempt(m.attemptId());
    appsByAttempt.put(m.attemptId(), app);
    getContext().getLog().info("Attempt {} of {} added to queue {}", m.attemptId(), m.appId(), m.queue());
    schedule();
    return this;
  }

  private Behavior<Command> onAttemptEnded(AttemptEnded m) {
    appsByAttempt.remove(m.attemptId());
    releaseAll(m.attemptId(), null, "Container of a failed attempt " + m.attemptId());
    return this;
  }

  private Behavior<Command> onAppEnded(AppEnded m) {
    SchedApp app = apps.remove(m.appId());
    if (app != null && app.attemptId != null) appsByAttempt.remove(app.attemptId);
    releaseAll(null, m.appId(), "Container of a completed application");
    getContext().getLog().info("Application {} ended as {}; its containers are being cleaned up", m.appId(), m.state());
    return this;
  }

  /** Kills every live container of an attempt or application; never-launched ones complete at once. */
  private void releaseAll(String attemptId, String appId, String diagnostics) {
    for (SchedContainer c : List.copyOf(containers.values())) {
      boolean mine = attemptId != null ? c.allocation.attemptId().equals(attemptId) : c.allocation.appId().equals(appId);
      if (mine) release(c, diagnostics);
    }
    if (appId != null) nodes.values().forEach(n -> n.appsToCleanup.add(appId));
  }

  private void release(SchedContainer c, String diagnostics) {
    SchedNode node = nodes.get(c.allocation.nodeId());
    switch (c.phase) {
      case RUNNING -> { if (node != null) node.toKill.add(c.id()); }
      case ALLOCATED -> {
        // It may be starting right now: ask the NM to kill it too, in case it reports it later.
        if (node != null) node.toKill.add(c.id());
        completeContainer(c.id(), ExitStatus.ABORTED, diagnostics, null);
      }
      default -> { }
    }
  }

  // Nodes

  private Behavior<Command> onNodeRegistered(NodeRegistered m) {
    long now = deps.clock().millis();
    SchedNode old = nodes.get(m.registration().nodeId());
    SchedNode node = new SchedNode(m.registration(), now);
    if (old != null) {
      node.allocated = old.allocated;
      node.containers.addAll(old.containers);
      node.toKill.addAll(old.toKill);
    }
    nodes.put(node.id(), node);
    node.lastResponse = new NodeHeartbeatResponse(0, NodeAction.NORMAL, List.of(), List.of(), List.of(), 0, "");
    for (ContainerStatus s : m.containers()) {
      SchedContainer c = containers.get(s.containerId());
      if (c == null) {
        if (!s.isComplete()) node.toKill.add(s.containerId());
        else node.toRemoveFromNm.add(s.containerId());
      } else if (s.isComplete()) {
        completeContainer(s.containerId(), s.exitStatus(), s.diagnostics(), node);
      }
    }
    getContext().getLog().info("Node {} registered with {}", node.id(), node.capacity());
    m.replyTo().tell(Done.getInstance());
    schedule();
    return this;
  }

  private Behavior<Command> onNodeHeartbeat(NodeHeartbeat m) {
    NodeHeartbeatRequest req = m.request();
    SchedNode node = nodes.get(req.nodeId());
    if (node == null || !node.state.isUsable()) {
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
    for (ContainerStatus s : req.containerStatuses()) {
      SchedContainer c = containers.get(s.containerId());
      if (s.isComplete()) {
        if (c == null) node.toRemoveFromNm.add(s.containerId());
        else completeContainer(s.containerId(), s.exitStatus(), s.diagnostics(), node);
      } else if (c == null) {
        node.toKill.add(s.containerId());
      } else if (c.phase == SchedContainer.Phase.ALLOCATED) {
        c.phase = SchedContainer.Phase.RUNNING;
        deps.containers().apply(c.id()).tell(new ContainerEntity.MarkRunning(getContext().getSystem().ignoreRef()));
      }
    }
    NodeHeartbeatResponse resp = new NodeHeartbeatResponse(
        last.responseId() + 1, NodeAction.NORMAL, List.copyOf(node.toKill), List.copyOf(node.appsToCleanup),
        List.copyOf(node.toRemoveFromNm), deps.nmHeartbeatInterval().toMillis(), "");
    node.appsToCleanup.clear();
    node.toRemoveFromNm.clear();
    node.lastResponse = resp;
    m.replyTo().tell(resp);
    schedule();
    return this;
  }

  private void expireNodes() {
    long now = deps.clock().millis();
    for (SchedNode node : nodes.values()) {
      if (node.state.isUsable() && now - node.lastHeartbeat > deps.nmExpiry().toMillis()) {
        node.state = NodeState.LOST;
        getContext().getLog().warn("Node {} lost: no heartbeat for {}", node.id(), deps.nmExpiry());
        for (String id : List.copyOf(node.containers)) {
          completeContainer(id, ExitStatus.ABORTED, "Container released on a *lost* node", null);
        }
      }
    }
  }

  // Containers

  private void completeContainer(String containerId, int exitStatus, String diagnostics, SchedNode ackTo) {
    SchedContainer c = containers.get(containerId);
    if (c == null) return;
    if (c.phase != SchedContainer.Phase.COMPLETING) {
      c.phase = SchedContainer.Phase.COMPLETING;
      SchedNode node = nodes.get(c.allocation.nodeId());
      if (node != null && node.containers.remove(containerId)) {
        node.allocated = node.allocated.minus(c.allocation.resource());
        node.toKill.remove(containerId);
      }
    }
    ContainerStatus status = ContainerStatus.completed(containerId, exitStatus, diagnostics, c.allocation.resource());
    AskPattern.<ContainerEntity.Command, StatusReply<Done>>ask(
            deps.containers().apply(containerId),
            r -> new ContainerEntity.Complete(exitStatus, diagnostics, r),
            deps.askTimeout(), getContext().getSystem().scheduler())
        .whenComplete((r, e) -> getContext().getSelf().tell(new CompletionDone(containerId, status,
            e != null ? e.getMessage() : r.isError() ? r.getError().getMessage() : null)));
  }

  private Behavior<Command> onCompletionDone(CompletionDone m) {
    SchedContainer c = containers.get(m.containerId());
    if (c == null) return this;
    if (m.error() != null) {
      // The NM keeps reporting the container until we acknowledge it, which retries this write.
      getContext().getLog().warn("Completion of {} not persisted yet: {}", m.containerId(), m.error());
      return this;
    }
    containers.remove(m.containerId());
    SchedNode node = nodes.get(c.allocation.nodeId());
    if (node != null) node.toRemoveFromNm.add(m.containerId());
    SchedApp app = appsByAttempt.get(c.allocation.attemptId());
    if (app != null) {
      app.containers.remove(m.containerId());
      if (!c.allocation.am()) app.completed.add(m.status());
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

  private void schedule() {
    List<AppView> demand = new ArrayList<>();
    for (SchedApp app : apps.values()) if (app.hasDemand()) demand.add(app.view());
    if (demand.isEmpty()) return;
    List<NodeView> usable = new ArrayList<>();
    for (SchedNode n : nodes.values()) if (n.state.isUsable()) usable.add(n.view());
    if (usable.isEmpty()) return;
    AllocationPlan plan = deps.policy().assign(deps.settings().queues(), usable, demand);
    for (Assignment a : plan.assignments()) place(a);
  }

  private void place(Assignment a) {
    SchedApp app = apps.get(a.appId());
    SchedNode node = nodes.get(a.nodeId());
    if (app == null || node == null || !a.attemptId().equals(app.attemptId)
        || !node.view().free().fits(a.capability())) {
      return;
    }
    String containerId = Ids.containerId(a.attemptId(), epoch, app.nextContainerSeq++);
    NodeEntity.Registration reg = node.registration;
    ContainerEntity.Allocation alloc = new ContainerEntity.Allocation(containerId, a.appId(), a.attemptId(),
        node.id(), reg.httpAddress(), a.capability(), a.ask().priority(), a.ask().allocationRequestId(), a.ask().am());
    SchedContainer c = new SchedContainer(alloc);
    containers.put(containerId, c);
    node.containers.add(containerId);
    node.allocated = node.allocated.plus(a.capability());
    app.containers.add(containerId);
    app.setAsks(Asks.afterPlacement(List.copyOf(app.asks.values()), a.ask(), reg.host(), node.id(), reg.rack()));
    containersAllocated++;
    getContext().getLog().info("Allocating {} ({}) on {} for {}: {}", containerId, a.capability(), node.id(),
        a.attemptId(), a.reason());
    AskPattern.<ContainerEntity.Command, StatusReply<Done>>ask(
            deps.containers().apply(containerId), r -> new ContainerEntity.Allocate(alloc, r),
            deps.askTimeout(), getContext().getSystem().scheduler())
        .whenComplete((r, e) -> getContext().getSelf().tell(new AllocationDone(containerId,
            e != null ? e.getMessage() : r.isError() ? r.getError().getMessage() : null)));
  }

  private Behavior<Command> onAllocationDone(AllocationDone m) {
    SchedContainer c = containers.get(m.containerId());
    if (c == null || c.phase != SchedContainer.Phase.IN_FLIGHT) return this;
    ContainerEntity.Allocation a = c.allocation;
    SchedApp app = appsByAttempt.get(a.attemptId());
    if (m.error() != null) {
      getContext().getLog().warn("Allocation of {} failed to persist: {}", m.containerId(), m.error());
      containers.remove(m.containerId());
      SchedNode node = nodes.get(a.nodeId());
      if (node != null && node.containers.remove(m.containerId())) node.allocated = node.allocated.minus(a.resource());
      if (app != null) {
        app.containers.remove(m.containerId());
        Ask again = new Ask(a.priority(), Ask.ANY, a.resource(), 1, true, a.allocationRequestId(), a.am());
        SchedApp.AskKey key = SchedApp.AskKey.of(again);
        Ask prev = app.asks.get(key);
        app.replaceAsk(prev == null ? again : prev.withCount(prev.count() + 1));
      }
      return this;
    }
    c.phase = SchedContainer.Phase.ALLOCATED;
    if (app == null) {
      // The attempt ended while the write was pending.
      release(c, "Container allocated to an attempt that has ended");
      return this;
    }
    Container container = toWire(a, app.user);
    if (a.am()) {
      deps.applications().apply(a.appId()).tell(new ApplicationEntity.AssignAmContainer(
          a.attemptId(), a.containerId(), a.nodeId(), a.nodeHttpAddress(), getContext().getSystem().ignoreRef()));
      String amToken = Tokens.amToken(new Tokens.AmTokenIdentifier(a.attemptId(), app.user), deps.tokenSecret());
      deps.amLauncher().tell(new AmLauncher.Launch(a.appId(), a.attemptId(), app.user, container, app.amLaunch,
          amToken, getContext().getSelf()));
    } else {
      app.newlyAllocated.add(container);
    }
    return this;
  }

  private Container toWire(ContainerEntity.Allocation a, String user) {
    long expiry = deps.clock().millis() + deps.containerTokenLifetime().toMillis();
    String token = Tokens.containerToken(new Tokens.ContainerTokenIdentifier(a.containerId(), a.nodeId(), user,
        a.resource(), expiry, deps.rmIdentifier()), deps.tokenSecret());
    return new Container(a.containerId(), a.nodeId(), a.nodeHttpAddress(), a.resource(), a.priority(), token,
        a.allocationRequestId());
  }

  // The AM protocol

  private Behavior<Command> onAmRegistered(AmRegistered m) {
    SchedApp app = appsByAttempt.get(m.attemptId());
    if (app == null) {
      m.replyTo().tell(AmOutcome.error("ApplicationAttemptNotFoundException",
          "Application attempt " + m.attemptId() + " doesn't exist in ApplicationMasterService cache."));
      return this;
    }
    app.registered = true;
    app.lastResponse = new AllocateResponse(0, List.of(), List.of(), Resource.NONE, 0, null);
    m.replyTo().tell(AmOutcome.ok(new RegisterAmResponse(maxAllocation(), app.queue, List.of())));
    return this;
  }

  private Behavior<Command> onAllocate(Allocate m) {
    SchedApp app = appsByAttempt.get(m.attemptId());
    if (app == null) {
      m.replyTo().tell(AmOutcome.error("ApplicationAttemptNotFoundException",
          "Application attempt " + m.attemptId() + " doesn't exist in ApplicationMasterService cache."));
      return this;
    }
    if (!app.registered) {
      m.replyTo().tell(AmOutcome.error("ApplicationMasterNotRegisteredException",
          "AM is not registered for known application attempt: " + m.attemptId()
              + " or RM had restarted after AM registered. AM should re-register."));
      return this;
    }
    AllocateRequest req = m.request();
    AllocateResponse last = app.lastResponse;
    if (req.responseId() + 1 == last.responseId()) {
      m.replyTo().tell(AmOutcome.ok(last));
      return this;
    }
    if (req.responseId() != last.responseId()) {
      m.replyTo().tell(AmOutcome.error("InvalidApplicationMasterRequestException",
          "Invalid responseId in AllocateRequest from application attempt: " + m.attemptId()
              + ", expect responseId to be " + last.responseId() + ", but get " + req.responseId()));
      return this;
    }
    app.progress = Float.isNaN(req.progress()) ? 0 : Math.max(0, Math.min(1, req.progress()));
    for (ResourceRequest r : req.ask()) {
      app.replaceAsk(new Ask(Math.max(1, r.priority()), r.resourceName(), normalize(r.capability()),
          r.numContainers(), r.relaxLocality(), r.allocationRequestId(), false));
    }
    for (String id : req.release()) {
      SchedContainer c = containers.get(id);
      if (c != null && c.allocation.attemptId().equals(m.attemptId())) {
        release(c, "Container released by application");
      }
    }
    schedule();
    AllocateResponse resp = new AllocateResponse(last.responseId() + 1, List.copyOf(app.newlyAllocated),
        List.copyOf(app.completed), headroom(), (int) nodes.values().stream().filter(n -> n.state.isUsable()).count(),
        null);
    app.newlyAllocated.clear();
    app.completed.clear();
    app.lastResponse = resp;
    m.replyTo().tell(AmOutcome.ok(resp));
    return this;
  }

  /** Rounds a request up to a multiple of the minimum allocation, as YARN's resource calculator does. */
  private Resource normalize(Resource r) {
    var s = deps.settings();
    long mem = roundUp(Math.max(r.memory(), s.minimumAllocationMb()), s.minimumAllocationMb());
    int vcores = (int) roundUp(Math.max(r.vCores(), s.minimumAllocationVcores()), s.minimumAllocationVcores());
    return new Resource(Math.min(mem, s.maximumAllocationMb()), Math.min(vcores, s.maximumAllocationVcores()));
  }

  private static long roundUp(long v, long step) {
    return step <= 0 ? v : ((v + step - 1) / step) * step;
  }

  private Resource maxAllocation() {
    return new Resource(deps.settings().maximumAllocationMb(), deps.settings().maximumAllocationVcores());
  }

  private Resource headroom() {
    Resource free = Resource.NONE;
    for (SchedNode n : nodes.values()) if (n.state.isUsable()) free = free.plus(n.view().free());
    return free;
  }

  // Views

  private Behavior<Command> onGetNodes(GetNodes m) {
    List<NodeReport> out = new ArrayList<>();
    for (SchedNode n : nodes.values()) {
      NodeEntity.Registration r = n.registration;
      out.add(new NodeReport(n.id(), r.host(), r.httpAddress(), r.rack(), n.state, r.capability(), n.allocated,
          n.containers.size(), n.lastHeartbeat, n.healthReport));
    }
    m.replyTo().tell(new NodesReport(out));
    return this;
  }

  private Behavior<Command> onGetUsage(GetUsage m) {
    Map<String, AppUsage> usage = new HashMap<>();
    for (SchedApp app : apps.values()) {
      Resource used = Resource.NONE;
      int running = 0;
      for (String id : app.containers) {
        SchedContainer c = containers.get(id);
        if (c != null && c.phase != SchedContainer.Phase.COMPLETING) {
          used = used.plus(c.allocation.resource());
          running++;
        }
      }
      usage.put(app.appId, new AppUsage(used, running, app.progress));
    }
    Resource cap = Resource.NONE;
    Resource used = Resource.NONE;
    int active = 0;
    int lost = 0;
    for (SchedNode n : nodes.values()) {
      if (n.state.isUsable()) {
        cap = cap.plus(n.capacity());
        used = used.plus(n.allocated);
        active++;
      } else if (n.state == NodeState.LOST) {
        lost++;
      }
    }
    m.replyTo().tell(new UsageReport(usage, cap, used, active, lost, containersAllocated));
    return this;
  }
}
