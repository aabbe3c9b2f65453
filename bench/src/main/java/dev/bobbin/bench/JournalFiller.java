package dev.bobbin.bench;

import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.core.scheduler.EpochEntity;
import dev.bobbin.core.app.AppNotices;
import dev.bobbin.core.app.AppState;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Writes a cluster's history through the real entities, without an RM around them: the entity
 * behaviors are spawned directly (same persistence ids, events, tags and snapshots as under
 * sharding) and sent the commands the RM would send. Every application has its id issued, is
 * submitted to one of ten queues, gets its AM container and registers its AM; each of its containers is allocated on a
 * node and marked running. Used to fill a journal for the recovery scenario (and to hold the
 * entities alive for the memory scenario).
 */
final class JournalFiller extends AbstractBehavior<JournalFiller.Msg> {
  /**
   * @param keep leave the entities running (for measuring their memory) instead of stopping each
   *     application's entities when its writes are done
   * @param finishedPerApp containers per application that ran and completed, their completion
   *     delivered to the AM: history that a recovery must not have to read again
   */
  record Plan(int nodes, Resource nodeCapacity, int apps, int containersPerApp, int finishedPerApp, int window,
      boolean keep) {
    int allPerApp() {
      return containersPerApp + finishedPerApp;
    }
  }

  /** {@code checkpointNanos}: writing the scheduler's checkpoint afterwards, 0 if none was written. */
  record Filled(long events, long nanos, long checkpointNanos) {}

  sealed interface Msg {}

  private record Ack(int app, Throwable error) implements Msg {}

  private record Started() implements Msg {}

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  /** The journal is filled with no scheduler running: nobody hears the applications' notices. */
  private static final AppNotices NO_SCHEDULER = new AppNotices() {
    @Override
    public void attemptAdded(String appId, String attemptId, Submission submission, long submitTime) {}

    @Override
    public void attemptEnded(String appId, String attemptId) {}

    @Override
    public void lifetimeChanged(String appId, long deadline) {}

    @Override
    public void appEnded(String appId, AppState state) {}

    @Override
    public void priorityChanged(String appId, int priority) {}

    @Override
    public void queueMoved(String appId, String queue) {}
  };
  private static final long CLUSTER = 1700000000000L;
  private static final String USER = "bench";

  static Behavior<Msg> create(Plan plan, CompletableFuture<Filled> done) {
    return Behaviors.setup(ctx -> new JournalFiller(ctx, plan, done));
  }

  private final Plan plan;
  private final CompletableFuture<Filled> done;
  private final Clock clock = Clock.systemUTC();
  private final List<ActorRef<QueueEntity.Command>> queues = new ArrayList<>();
  private final int[] stage;
  private final int[] pending;
  private final List<List<ActorRef<?>>> children;
  private final long started = System.nanoTime();
  private int setupPending;
  private int nextApp;
  private int finished;
  private long events;

  private JournalFiller(ActorContext<Msg> ctx, Plan plan, CompletableFuture<Filled> done) {
    super(ctx);
    this.plan = plan;
    this.done = done;
    this.stage = new int[plan.apps()];
    this.pending = new int[plan.apps()];
    this.children = new ArrayList<>(plan.apps());
    for (int i = 0; i < plan.apps(); i++) children.add(null);
    // The scheduler's epoch, as a scheduler that ran would have left it.
    ActorRef<EpochEntity.Command> epoch = ctx.spawn(EpochEntity.create("default"), "epoch");
    setupPending++;
    epoch.tell(new EpochEntity.Next(ctx.messageAdapter(EpochEntity.Started.class, s -> new Started())));
    for (int q = 0; q < Topology.QUEUES; q++) {
      ActorRef<QueueEntity.Command> queue = ctx.spawn(QueueEntity.create("q" + q), "queue-q" + q);
      queues.add(queue);
      setupPending++;
      ctx.askWithStatus(QueueEntity.Report.class, queue, TIMEOUT,
          r -> new QueueEntity.Configure("bench", QueueEntity.QueueState.RUNNING, r), (ok, err) -> setup(err));
    }
    for (int n = 0; n < plan.nodes(); n++) {
      ActorRef<NodeEntity.Command> node = ctx.spawn(NodeEntity.create(Topology.nodeId(n), clock), "node-" + n);
      var reg = new NodeEntity.Registration(Topology.nodeId(n), Topology.nodeHost(n), "127.0.0.1:1", Topology.rack(n),
          plan.nodeCapacity());
      setupPending++;
      ctx.askWithStatus(NodeEntity.Report.class, node, TIMEOUT, r -> new NodeEntity.Register(reg, r),
          (ok, err) -> setup(err));
    }
  }

  private Msg setup(Throwable err) {
    return new Ack(-1, err);
  }

  @Override
  public Receive<Msg> createReceive() {
    return newReceiveBuilder()
        .onMessage(Started.class, s -> onSetupAck(null))
        .onMessage(Ack.class, a -> a.app() < 0 ? onSetupAck(a.error()) : onAck(a))
        .build();
  }

  private Behavior<Msg> onSetupAck(Throwable err) {
    if (err != null) return fail(err);
    events++;
    if (--setupPending == 0) {
      for (int i = 0; i < plan.window() && nextApp < plan.apps(); i++) startApp(nextApp++);
    }
    return this;
  }

  /** Containers fill the nodes in order, each node holding its share of them. */
  private int nodeOf(int app, int container) {
    long perNode = Math.max(1, ((long) plan.apps() * plan.containersPerApp() + plan.nodes() - 1) / plan.nodes());
    return (int) ((((long) app * plan.containersPerApp() + container - 1) / perNode) % plan.nodes());
  }

  private String appId(int i) {
    return Ids.applicationId(CLUSTER, i + 1);
  }

  private void startApp(int i) {
    String appId = appId(i);
    ActorRef<ApplicationEntity.Command> app = getContext().spawn(
        ApplicationEntity.create(appId, NO_SCHEDULER, clock, 100), appId);
    List<ActorRef<?>> kids = new ArrayList<>();
    kids.add(app);
    children.set(i, kids);
    stage[i] = 0;
    pending[i] = 1;
    getContext().askWithStatus(Done.class, app, TIMEOUT, r -> new ApplicationEntity.Issue(USER, r),
        (ok, err) -> new Ack(i, err));
  }

  private void submit(int i, ActorRef<ApplicationEntity.Command> app) {
    Submission s = new Submission(appId(i), "bench", USER, "q" + (i % Topology.QUEUES), 0, "YARN", List.of(),
        Topology.CONTAINER, new ContainerLaunchContext(List.of("sim-am"), Map.of()), 2);
    stage[i] = 1;
    pending[i] = 1;
    getContext().askWithStatus(AppReport.class, app, TIMEOUT, r -> new ApplicationEntity.Submit(s, r),
        (ok, err) -> new Ack(i, err));
  }

  @SuppressWarnings("unchecked")
  private Behavior<Msg> onAck(Ack a) {
    if (a.error() != null) return fail(a.error());
    int i = a.app();
    events++;
    if (--pending[i] > 0) return this;
    String appId = appId(i);
    String attempt = Ids.attemptId(appId, 1);
    int node = nodeOf(i, 1);
    List<ActorRef<?>> kids = children.get(i);
    ActorRef<ApplicationEntity.Command> app = (ActorRef<ApplicationEntity.Command>) kids.get(0);
    if (stage[i] == 0) {
      submit(i, app);
    } else if (stage[i] == 1) {
      stage[i] = 2;
      events++; // Submit persists two events (submitted, attempt started).
      String amContainer = Ids.containerId(attempt, 1, 1);
      pending[i] = 2 + plan.allPerApp();
      getContext().askWithStatus(Done.class, app, TIMEOUT, r -> new ApplicationEntity.AssignAmContainer(attempt,
          amContainer, Topology.nodeId(node), "127.0.0.1:1", r), (ok, err) -> new Ack(i, err));
      getContext().askWithStatus(QueueEntity.Admitted.class, queues.get(i % Topology.QUEUES), TIMEOUT,
          r -> new QueueEntity.AddApps(List.of(appId), "bench", AdmissionTerms.OPEN, r), (ok, err) -> new Ack(i, err));
      for (int c = 1; c <= plan.allPerApp(); c++) {
        String id = Ids.containerId(attempt, 1, c);
        int on = nodeOf(i, (c - 1) % plan.containersPerApp() + 1);
        ActorRef<ContainerEntity.Command> container = getContext().spawn(ContainerEntity.create(id, clock), id);
        kids.add(container);
        var alloc = new ContainerEntity.Allocation(id, appId, attempt, Topology.nodeId(c == 1 ? node : on),
            "127.0.0.1:1", Topology.CONTAINER, c == 1 ? 0 : 1, -1, c == 1);
        getContext().askWithStatus(Done.class, container, TIMEOUT, r -> new ContainerEntity.Allocate(alloc, r),
            (ok, err) -> new Ack(i, err));
      }
    } else if (stage[i] == 2) {
      stage[i] = 3;
      pending[i] = 1 + plan.allPerApp();
      getContext().askWithStatus(AppReport.class, app, TIMEOUT,
          r -> new ApplicationEntity.RegisterAm(attempt, "sim", 0, "", r), (ok, err) -> new Ack(i, err));
      for (int c = 1; c <= plan.allPerApp(); c++) {
        ActorRef<ContainerEntity.Command> container = (ActorRef<ContainerEntity.Command>) kids.get(c);
        getContext().askWithStatus(Done.class, container, TIMEOUT, ContainerEntity.MarkRunning::new,
            (ok, err) -> new Ack(i, err));
      }
    } else if (stage[i] == 3 && plan.finishedPerApp() > 0) {
      stage[i] = 4;
      pending[i] = plan.finishedPerApp();
      for (int c = plan.containersPerApp() + 1; c <= plan.allPerApp(); c++) {
        ActorRef<ContainerEntity.Command> container = (ActorRef<ContainerEntity.Command>) kids.get(c);
        getContext().askWithStatus(Done.class, container, TIMEOUT, r -> new ContainerEntity.Complete(0, "", r),
            (ok, err) -> new Ack(i, err));
      }
    } else if (stage[i] == 4) {
      // The AM acknowledged the completions: one record for all of them, as the scheduler writes it.
      stage[i] = 5;
      pending[i] = 1;
      List<String> finishedIds = new ArrayList<>();
      for (int c = plan.containersPerApp() + 1; c <= plan.allPerApp(); c++) finishedIds.add(Ids.containerId(attempt, 1, c));
      getContext().askWithStatus(Done.class, app, TIMEOUT,
          r -> new ApplicationEntity.RecordDeliveries(attempt, finishedIds, r), (ok, err) -> new Ack(i, err));
    } else {
      stage[i] = 6;
      if (!plan.keep()) {
        for (ActorRef<?> k : kids) getContext().stop(k);
        children.set(i, null);
      }
      finished++;
      if (nextApp < plan.apps()) startApp(nextApp++);
      if (finished == plan.apps()) done.complete(new Filled(events, System.nanoTime() - started, 0));
    }
    return this;
  }

  private Behavior<Msg> fail(Throwable err) {
    done.completeExceptionally(err);
    return Behaviors.stopped();
  }
}
