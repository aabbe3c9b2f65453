package dev.bobbin.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.SchedulerPolicy;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.keys.SigningKeys;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.scheduler.EpochEntity;
import dev.bobbin.core.scheduler.Scheduler;
import dev.bobbin.core.scheduler.SchedulerDeps;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.am.ResourceRequest;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.pattern.StatusReply;

/**
 * The real Scheduler actor in a plain (journal-free) actor system, as SchedulerTest drives it: its
 * Container and Application entities are stubs that acknowledge at once, its AM launcher a stub
 * that "starts" the AM, and one driver actor plays every NodeManager (a heartbeat per node per
 * interval, reporting its containers) and every ApplicationMaster (an allocate per interval).
 */
final class SchedulerHarness implements AutoCloseable {
  /** The simulated cluster. */
  /** @param policy fifo, fair or capacity */
  record Setup(int nodes, Resource nodeCapacity, int apps, String policy, Duration nmInterval, Duration amInterval) {
    boolean fair() {
      return policy.equals("fair");
    }

    boolean capacity() {
      return policy.equals("capacity");
    }

    /** Whether the ten leaves sit under three parents (Fair and Capacity) rather than flat (FIFO). */
    boolean hierarchical() {
      return !policy.equals("fifo");
    }
  }

  /** One round: how many containers, from the first ask to the last placement. */
  record Round(long placed, long fillNanos) {}

  final Setup setup;
  final ActorSystem<Void> system;
  final ActorRef<Msg> driver;
  final Counters counters;
  final Latency askToPlaced = new Latency();

  /** What the driver has seen, readable from the bench thread. */
  static final class Counters {
    final AtomicLong placed = new AtomicLong();
    final AtomicLong markedRunning = new AtomicLong();
    final AtomicLong completions = new AtomicLong();
    final AtomicLong heartbeats = new AtomicLong();
    final AtomicLong allocates = new AtomicLong();
    final AtomicLong delivered = new AtomicLong();
    final AtomicLong outstandingCompleted = new AtomicLong();
  }

  private SchedulerHarness(Setup setup, Path snapshotDir) throws Exception {
    this.setup = setup;
    this.counters = new Counters();
    Config config = ConfigFactory.parseString("""
            pekko {
              loglevel = WARNING
              loggers = ["org.apache.pekko.event.slf4j.Slf4jLogger"]
              logging-filter = "org.apache.pekko.event.slf4j.Slf4jLoggingFilter"
              actor.provider = local
              persistence.journal.plugin = "pekko.persistence.journal.inmem"
              persistence.snapshot-store.plugin = "pekko.persistence.snapshot-store.local"
              coordinated-shutdown.exit-jvm = off
              coordinated-shutdown.run-by-jvm-shutdown-hook = off
            }
            """)
        .withFallback(ConfigFactory.parseMap(Map.of("pekko.persistence.snapshot-store.local.dir", snapshotDir.toString())))
        .withFallback(ConfigFactory.load());
    CompletableFuture<ActorRef<Msg>> driverRef = new CompletableFuture<>();
    this.system = ActorSystem.create(Behaviors.setup(ctx -> {
      driverRef.complete(ctx.spawn(Behaviors.withTimers(timers -> Behaviors.<Msg>setup(dctx ->
          new Driver(dctx, timers, this))), "driver"));
      return Behaviors.empty();
    }), "bench-scheduler", config);
    this.driver = driverRef.get(30, TimeUnit.SECONDS);
  }

  static SchedulerHarness start(Setup setup, Path snapshotDir) throws Exception {
    return new SchedulerHarness(setup, snapshotDir);
  }

  /** Registers the nodes and adds the applications; completes when every AM has registered. */
  CompletableFuture<Long> populate() {
    CompletableFuture<Long> done = new CompletableFuture<>();
    driver.tell(new Populate(done));
    return done;
  }

  /** The demand applications ask for {@code perApp} containers each; completes when all are placed. */
  CompletableFuture<Round> fill(int[] demandApps, int perApp) {
    CompletableFuture<Round> done = new CompletableFuture<>();
    driver.tell(new Fill(demandApps, perApp, done));
    return done;
  }

  /**
   * Every application is killed, one {@code AppEnded} after another; completes with the time the
   * scheduler has handled them all. The harness cannot run another round after it.
   */
  CompletableFuture<Long> endAll() {
    CompletableFuture<Long> done = new CompletableFuture<>();
    driver.tell(new EndAll(done));
    return done;
  }

  /** Every NodeManager reports its workers completed; completes when the RM has acknowledged all. */
  CompletableFuture<Long> drain() {
    CompletableFuture<Long> done = new CompletableFuture<>();
    driver.tell(new Drain(done));
    return done;
  }

  @Override
  public void close() {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // Best effort: the JVM may be about to exit anyway.
    }
  }

  // The driver's protocol

  sealed interface Msg {}

  record Populate(CompletableFuture<Long> done) implements Msg {}

  record Fill(int[] apps, int perApp, CompletableFuture<Round> done) implements Msg {}

  record Drain(CompletableFuture<Long> done) implements Msg {}

  record EndAll(CompletableFuture<Long> done) implements Msg {}

  record Placed(ContainerEntity.Allocation allocation, long at) implements Msg {}

  record AmLaunch(String attemptId) implements Msg {}

  record NodeUp(long epoch) implements Msg {}

  record HbReply(int node, NodeHeartbeatResponse response) implements Msg {}

  record AmUp(int app, SchedulerProtocol.AmOutcome<RegisterAmResponse> outcome) implements Msg {}

  record AllocReply(int app, SchedulerProtocol.AmOutcome<AllocateResponse> outcome) implements Msg {}

  record Ended(CompletableFuture<Long> done) implements Msg {}

  enum Tick implements Msg { INSTANCE }

  enum AddApps implements Msg { INSTANCE }

  private static final class SimNode {
    final int index;
    final String id;
    int responseId;
    boolean inFlight;
    boolean urgent;
    final List<String> running = new ArrayList<>();
    final List<String> workers = new ArrayList<>();
    final List<String> completed = new ArrayList<>();
    ActorRef<NodeHeartbeatResponse> replies;

    SimNode(int index) {
      this.index = index;
      this.id = Topology.nodeId(index);
    }
  }

  private static final class SimApp {
    final int index;
    final String appId;
    final String attemptId;
    boolean registered;
    int responseId;
    boolean inFlight;
    int askToSend = -1;
    long askSentAt;
    ActorRef<SchedulerProtocol.AmOutcome<RegisterAmResponse>> registerReplies;
    ActorRef<SchedulerProtocol.AmOutcome<AllocateResponse>> allocateReplies;

    SimApp(int index) {
      this.index = index;
      this.appId = Ids.applicationId(1700000000000L, index + 1);
      this.attemptId = Ids.attemptId(appId, 1);
    }
  }

  /** Plays the NodeManagers and AMs. All of its state is its own; the bench thread sees counters. */
  private static final class Driver extends AbstractBehavior<Msg> {
    private final SchedulerHarness h;
    private final TimerScheduler<Msg> timers;
    private final ActorRef<SchedulerProtocol.Command> scheduler;
    private final SimNode[] nodes;
    private final SimApp[] apps;
    private final Map<String, SimApp> byAttempt = new HashMap<>();
    private final Map<String, Integer> nodeIndex = new HashMap<>();
    private final ActorRef<Long> nodeUps;
    private CompletableFuture<Long> populated;
    private int nodesUp;
    private int amsUp;
    private long started;
    private long nmDue;
    private long amDue;
    // The round in progress.
    private CompletableFuture<Round> filling;
    private long fillTarget;
    private long fillPlaced;
    private long fillStart;
    private long lastPlacement;
    private CompletableFuture<Long> draining;

    Driver(ActorContext<Msg> ctx, TimerScheduler<Msg> timers, SchedulerHarness h) {
      super(ctx);
      this.h = h;
      this.timers = timers;
      Setup s = h.setup;
      ActorRef<Msg> self = ctx.getSelf();
      Behavior<ContainerEntity.Command> containers = Behaviors.receive(ContainerEntity.Command.class)
          .onMessage(ContainerEntity.Allocate.class, m -> {
            m.replyTo().tell(StatusReply.ack());
            self.tell(new Placed(m.allocation(), System.nanoTime()));
            return Behaviors.same();
          })
          .onMessage(ContainerEntity.MarkRunning.class, m -> {
            m.replyTo().tell(StatusReply.ack());
            h.counters.markedRunning.incrementAndGet();
            return Behaviors.same();
          })
          .onMessage(ContainerEntity.Complete.class, m -> {
            m.replyTo().tell(StatusReply.ack());
            h.counters.completions.incrementAndGet();
            return Behaviors.same();
          })
          .onMessage(ContainerEntity.RequestPreemption.class, m -> {
            m.replyTo().tell(StatusReply.ack());
            return Behaviors.same();
          })
          .onMessage(ContainerEntity.Get.class, m -> {
            m.replyTo().tell(StatusReply.error("stub"));
            return Behaviors.same();
          })
          .build();
      ActorRef<ContainerEntity.Command> containerStub = ctx.spawn(containers, "container-entities");
      ActorRef<AmLauncher.Command> launcher = ctx.spawn(Behaviors.receive(AmLauncher.Command.class)
          .onMessage(AmLauncher.Launch.class, l -> {
            self.tell(new AmLaunch(l.attemptId()));
            return Behaviors.same();
          })
          .build(), "am-launcher");
      SchedulerPolicy kind = s.fair() ? SchedulerPolicy.FAIR : s.capacity() ? SchedulerPolicy.CAPACITY : SchedulerPolicy.FIFO;
      SchedulerSettings settings = new SchedulerSettings(kind, Topology.fifoQueues(), 1024, 1, 8192, 8,
          Duration.ofMillis(200), 2000, 0.5);
      PolicyConfig policy = new PolicyConfig(settings, s.fair() ? Topology.fairSetup() : null,
          s.capacity() ? Topology.capacityConfig() : null);
      byte[] secret = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
      SchedulerDeps deps = new SchedulerDeps(settings, policy, SigningKeys.fixed(secret, secret), s.nmInterval(),
          Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofSeconds(30),
          Clock.systemUTC(), Duration.ofSeconds(10), 1.0,
          c -> new StubEffects(ctx.getSystem(), containerStub, launcher, c.spawn(EpochEntity.create("default"), "epoch"),
              policy));
      this.scheduler = ctx.spawn(Scheduler.create(deps), "scheduler");
      this.nodeUps = ctx.messageAdapter(Long.class, NodeUp::new);
      this.nodes = new SimNode[s.nodes()];
      for (int i = 0; i < nodes.length; i++) {
        SimNode n = new SimNode(i);
        int idx = i;
        n.replies = ctx.spawnAnonymous(Behaviors.receiveMessage((NodeHeartbeatResponse r) -> {
          self.tell(new HbReply(idx, r));
          return Behaviors.same();
        }));
        nodes[i] = n;
        nodeIndex.put(n.id, i);
      }
      this.apps = new SimApp[s.apps()];
      for (int i = 0; i < apps.length; i++) {
        SimApp a = new SimApp(i);
        int idx = i;
        a.registerReplies = ctx.spawnAnonymous(Behaviors.receiveMessage(
            (SchedulerProtocol.AmOutcome<RegisterAmResponse> o) -> {
              self.tell(new AmUp(idx, o));
              return Behaviors.same();
            }));
        a.allocateReplies = ctx.spawnAnonymous(Behaviors.receiveMessage(
            (SchedulerProtocol.AmOutcome<AllocateResponse> o) -> {
              self.tell(new AllocReply(idx, o));
              return Behaviors.same();
            }));
        apps[i] = a;
        byAttempt.put(a.attemptId, a);
      }
    }

    @Override
    public Receive<Msg> createReceive() {
      return newReceiveBuilder()
          .onMessage(Populate.class, this::onPopulate)
          .onMessage(NodeUp.class, this::onNodeUp)
          .onMessage(Placed.class, this::onPlaced)
          .onMessage(AmLaunch.class, this::onAmLaunch)
          .onMessage(AmUp.class, this::onAmUp)
          .onMessage(Tick.class, t -> onTick())
          .onMessage(AddApps.class, t -> onAddApps())
          .onMessage(HbReply.class, this::onHbReply)
          .onMessage(AllocReply.class, this::onAllocReply)
          .onMessage(Fill.class, this::onFill)
          .onMessage(Drain.class, this::onDrain)
          .onMessage(EndAll.class, this::onEndAll)
          .onMessage(Ended.class, m -> {
            m.done().complete(System.nanoTime());
            return this;
          })
          .build();
    }

    private Behavior<Msg> onPopulate(Populate p) {
      populated = p.done();
      Resource cap = h.setup.nodeCapacity();
      for (SimNode n : nodes) {
        scheduler.tell(new SchedulerProtocol.NodeRegistered(new NodeEntity.Registration(n.id, Topology.nodeHost(n.index),
            "127.0.0.1:1", Topology.rack(n.index), cap), List.of(), List.of(), nodeUps));
      }
      return this;
    }

    private Behavior<Msg> onNodeUp(NodeUp m) {
      if (++nodesUp < nodes.length) return this;
      started = System.nanoTime();
      timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofMillis(20));
      // Under Fair, applications arrive once the scheduler has seen the cluster (its first share
      // update); before it, every queue's max share is still zero.
      if (h.setup.fair()) {
        timers.startSingleTimer(AddApps.INSTANCE,
            Topology.fairSetup().global().updateInterval().plus(Duration.ofMillis(500)));
        return this;
      }
      return onAddApps();
    }

    private Behavior<Msg> onAddApps() {
      ContainerLaunchContext launch = new ContainerLaunchContext(List.of("sim"), Map.of());
      for (SimApp a : apps) {
        scheduler.tell(new SchedulerProtocol.AttemptAdded(a.appId, a.attemptId, Topology.queue(h.setup.hierarchical(), a.index),
            "bench", 0, Topology.CONTAINER, launch, a.index));
      }
      return this;
    }

    private Behavior<Msg> onPlaced(Placed m) {
      ContainerEntity.Allocation a = m.allocation();
      h.counters.placed.incrementAndGet();
      Integer ni = nodeIndex.get(a.nodeId());
      if (ni != null) {
        nodes[ni].running.add(a.containerId());
        if (!a.am()) nodes[ni].workers.add(a.containerId());
      }
      if (!a.am() && filling != null) {
        SimApp app = byAttempt.get(a.attemptId());
        if (app != null) h.askToPlaced.add(m.at() - app.askSentAt);
        fillPlaced++;
        lastPlacement = m.at();
        if (fillPlaced >= fillTarget) {
          CompletableFuture<Round> f = filling;
          filling = null;
          f.complete(new Round(fillPlaced, lastPlacement - fillStart));
        }
      }
      return this;
    }

    private Behavior<Msg> onAmLaunch(AmLaunch m) {
      SimApp app = byAttempt.get(m.attemptId());
      if (app != null) scheduler.tell(new SchedulerProtocol.AmRegistered(app.attemptId, app.registerReplies));
      return this;
    }

    private Behavior<Msg> onAmUp(AmUp m) {
      SimApp app = apps[m.app()];
      if (m.outcome().exception() != null) {
        throw new IllegalStateException("AM registration failed: " + m.outcome().message());
      }
      if (!app.registered) {
        app.registered = true;
        if (++amsUp == apps.length && populated != null) populated.complete(System.nanoTime() - started);
      }
      return this;
    }

    private Behavior<Msg> onTick() {
      long now = System.nanoTime();
      long elapsed = now - started;
      long nmTarget = elapsed / Math.max(1, h.setup.nmInterval().toNanos() / nodes.length);
      for (int k = 0; nmDue < nmTarget && k < nodes.length; k++, nmDue++) {
        SimNode n = nodes[(int) (nmDue % nodes.length)];
        if (!n.inFlight) heartbeat(n);
      }
      nmDue = Math.max(nmDue, nmTarget - nodes.length);
      long amTarget = elapsed / Math.max(1, h.setup.amInterval().toNanos() / apps.length);
      for (int k = 0; amDue < amTarget && k < apps.length; k++, amDue++) {
        SimApp a = apps[(int) (amDue % apps.length)];
        if (a.registered && !a.inFlight) allocate(a);
      }
      amDue = Math.max(amDue, amTarget - apps.length);
      return this;
    }

    private void heartbeat(SimNode n) {
      List<ContainerStatus> statuses = new ArrayList<>(n.running.size() + n.completed.size());
      for (String id : n.running) statuses.add(ContainerStatus.running(id, Topology.CONTAINER));
      for (String id : n.completed) statuses.add(ContainerStatus.completed(id, ExitStatus.SUCCESS, "", Topology.CONTAINER));
      n.inFlight = true;
      n.urgent = false;
      h.counters.heartbeats.incrementAndGet();
      scheduler.tell(new SchedulerProtocol.NodeHeartbeat(new NodeHeartbeatRequest(n.id, n.responseId, statuses, true, ""),
          n.replies));
    }

    private Behavior<Msg> onHbReply(HbReply m) {
      SimNode n = nodes[m.node()];
      NodeHeartbeatResponse r = m.response();
      n.inFlight = false;
      if (r.nodeAction() != NodeAction.NORMAL) {
        throw new IllegalStateException("node " + n.id + " told " + r.nodeAction() + ": " + r.diagnostics());
      }
      n.responseId = r.responseId();
      if (!r.containersToBeRemovedFromNm().isEmpty()) {
        n.completed.removeAll(r.containersToBeRemovedFromNm());
        h.counters.outstandingCompleted.addAndGet(-r.containersToBeRemovedFromNm().size());
        checkDrained();
      }
      for (String kill : r.containersToCleanup()) {
        if (n.running.remove(kill)) {
          n.workers.remove(kill);
          n.completed.add(kill);
          h.counters.outstandingCompleted.incrementAndGet();
        }
      }
      if (n.urgent) heartbeat(n);
      return this;
    }

    private void allocate(SimApp a) {
      List<ResourceRequest> ask = List.of();
      if (a.askToSend >= 0) {
        ask = List.of(ResourceRequest.any(1, Topology.CONTAINER, a.askToSend));
        a.askToSend = -1;
        a.askSentAt = System.nanoTime();
      }
      a.inFlight = true;
      h.counters.allocates.incrementAndGet();
      scheduler.tell(new SchedulerProtocol.Allocate(a.attemptId, new AllocateRequest(a.responseId, 0.5f, ask, List.of()),
          a.allocateReplies));
    }

    private Behavior<Msg> onAllocReply(AllocReply m) {
      SimApp a = apps[m.app()];
      a.inFlight = false;
      if (!a.registered) return this;
      if (m.outcome().exception() != null) {
        throw new IllegalStateException("allocate failed: " + m.outcome().message());
      }
      AllocateResponse r = m.outcome().response();
      a.responseId = r.responseId();
      h.counters.delivered.addAndGet(r.allocatedContainers().size());
      if (a.askToSend >= 0) allocate(a);
      return this;
    }

    private Behavior<Msg> onFill(Fill f) {
      filling = f.done();
      fillTarget = (long) f.apps().length * f.perApp();
      fillPlaced = 0;
      fillStart = System.nanoTime();
      for (int i : f.apps()) {
        SimApp a = apps[i];
        a.askToSend = f.perApp();
        if (!a.inFlight) allocate(a);
      }
      return this;
    }

    private Behavior<Msg> onDrain(Drain d) {
      draining = d.done();
      for (SimNode n : nodes) {
        if (n.workers.isEmpty()) continue;
        n.running.removeAll(n.workers);
        n.completed.addAll(n.workers);
        h.counters.outstandingCompleted.addAndGet(n.workers.size());
        n.workers.clear();
        if (n.inFlight) n.urgent = true;
        else heartbeat(n);
      }
      checkDrained();
      return this;
    }

    private Behavior<Msg> onEndAll(EndAll m) {
      for (SimApp a : apps) {
        // Its AM stops calling: the scheduler no longer knows the attempt.
        a.registered = false;
        scheduler.tell(new SchedulerProtocol.AppEnded(a.appId, AppState.KILLED));
      }
      // The scheduler answers in mailbox order, so this comes back once every end above is handled.
      scheduler.tell(new SchedulerProtocol.WhenRecovered(getContext().messageAdapter(Done.class, d -> new Ended(m.done()))));
      return this;
    }

    private void checkDrained() {
      if (draining != null && h.counters.outstandingCompleted.get() == 0) {
        CompletableFuture<Long> d = draining;
        draining = null;
        d.complete(System.nanoTime());
      }
    }
  }
}
