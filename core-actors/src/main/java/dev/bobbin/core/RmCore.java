package dev.bobbin.core;

import dev.bobbin.config.QueuePath;
import com.typesafe.config.ConfigFactory;
import dev.bobbin.config.HttpTls;
import dev.bobbin.config.RmSettings;
import dev.bobbin.config.SchedulerSettings;
import dev.bobbin.config.fair.Placement;
import dev.bobbin.config.security.Caller;
import dev.bobbin.core.access.AccessRules;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.ApplicationIdStamps;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.app.AttemptState;
import dev.bobbin.core.app.Submission;
import dev.bobbin.core.app.SubmissionRules;
import dev.bobbin.core.app.SubmitVerdict;
import dev.bobbin.core.base.Rejection;
import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.directory.AppCounts;
import dev.bobbin.core.directory.AppDirectory;
import dev.bobbin.core.keys.KeySchedule;
import dev.bobbin.core.keys.MemberKeys;
import dev.bobbin.core.keys.MemberTokens;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.AdmissionTerms;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.policy.QueueAcls;
import dev.bobbin.core.policy.SchedulerView;
import dev.bobbin.core.queue.QueueAdmissions;
import dev.bobbin.core.queue.MemberQueues;
import dev.bobbin.core.queue.QueueEntity;
import dev.bobbin.core.scheduler.CheckpointWriter;
import dev.bobbin.core.scheduler.EntityEffects;
import dev.bobbin.core.scheduler.EpochEntity;
import dev.bobbin.core.scheduler.JournalRecovery;
import dev.bobbin.core.scheduler.Scheduler;
import dev.bobbin.core.scheduler.SchedulerDeps;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.core.scheduler.ToScheduler;
import dev.bobbin.core.trust.HostListsRefresh;
import dev.bobbin.protocol.NodeState;
import dev.bobbin.core.trust.MemberHostLists;
import dev.bobbin.core.trust.NodeTrust;
import dev.bobbin.core.trust.ProtocolGuard;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.NodeAction;
import dev.bobbin.protocol.am.AllocateRequest;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.FinishAmRequest;
import dev.bobbin.protocol.am.FinishAmResponse;
import dev.bobbin.protocol.am.RegisterAmRequest;
import dev.bobbin.protocol.am.RegisterAmResponse;
import dev.bobbin.protocol.node.NodeHeartbeatRequest;
import dev.bobbin.protocol.node.NodeHeartbeatResponse;
import dev.bobbin.protocol.node.RegisterNodeRequest;
import dev.bobbin.protocol.node.RegisterNodeResponse;
import dev.bobbin.protocol.node.UnregisterNodeRequest;
import dev.bobbin.protocol.node.UnregisterNodeResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.pubsub.Topic;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One RM member's actors: the shard regions of the four entities, the scheduler singleton, the AM
 * launcher and the application directory; and the operations the HTTP layer translates to.
 */
public final class RmCore {
  private static final Logger log = LoggerFactory.getLogger(RmCore.class);
  /** The name of the scheduler's cluster singleton. */
  static final String SCHEDULER = "scheduler";
  private final ActorSystem<?> system;
  private final RmSettings rm;
  private final SchedulerSettings scheduler;
  private final ClusterSharding sharding;
  /** The scheduler singleton: directly while it runs on this member, else through its proxy. */
  private final LocalSingleton<SchedulerProtocol.Command> schedulerRef;
  private final AppDirectory directory;
  private final ActorRef<QueueAdmissions.Command> admissions;
  private final MemberQueues queues;
  private final ActorRef<Topic.Command<MemberQueues.Refreshed>> queuesRefreshed;
  private final ProtocolGuard guard;
  private final ActorRef<Topic.Command<HostListsRefresh.Refreshed>> hostListsRefreshed;
  private final long clusterTimestamp;
  private final String nodeScheme;
  private final AtomicInteger appSequence = new AtomicInteger();
  /** This incarnation's application id stamp; asked for again if the first ask failed. */
  private volatile CompletionStage<Long> idStamp;
  private final Duration timeout;
  private final Supplier<PolicyConfig> reload;
  private final AccessRules access;

  /**
   * @param policy the scheduling policy's configuration, as this member read it
   * @param reload reads it again, for a queue refresh (blocking: it reads files)
   * @param access who may submit where, and who administers the cluster
   */
  public RmCore(ActorSystem<?> system, RmSettings rm, SchedulerSettings scheduler, List<String> rmAddresses,
      PolicyConfig policy, Supplier<PolicyConfig> reload, AccessRules access) {
    this.system = system;
    this.access = access;
    this.rm = rm;
    this.scheduler = scheduler;
    this.timeout = rm.askTimeout();
    this.reload = reload;
    this.clusterTimestamp = System.currentTimeMillis();
    Clock clock = Clock.systemUTC();
    this.sharding = ClusterSharding.get(system);
    WrittenUnderLease.register(system);
    MemberKeys keys = MemberKeys.start(system, KeySchedule.of(rm), clock, timeout);
    this.guard = new ProtocolGuard(
        NodeTrust.load(rm.nodeTrust()), new MemberTokens(keys, clock), this::isCurrentAttempt);
    HttpTls tls = HttpTls.from(system.settings().config().withFallback(ConfigFactory.defaultReference()));
    this.nodeScheme = tls.httpsOnly() ? "https" : "http";
    ActorRef<AmLauncher.Command> launcher = system.systemActorOf(
        AmLauncher.create(rmAddresses, timeout, rm.amLauncherThreads(), tls), "am-launcher", Props.empty());
    SchedulerDeps deps = new SchedulerDeps(scheduler, policy, keys, rm.nmHeartbeatInterval(), rm.nmExpiry(),
        rm.amExpiry(), rm.containerAllocationExpiry(), timeout, clock, rm.recoverySchedulingWait(),
        rm.recoveryMinNodeShare(),
        ctx -> new EntityEffects(system, timeout,
            id -> sharding.entityRefFor(ContainerEntity.TYPE_KEY, id),
            id -> sharding.entityRefFor(ApplicationEntity.TYPE_KEY, id),
            id -> sharding.entityRefFor(NodeEntity.TYPE_KEY, id),
            launcher, ctx.spawn(EpochEntity.create(EpochEntity.DEFAULT_PARTITION), "epoch"), () -> JournalRecovery.read(system), reload),
        host -> guard.hostLists().current().untracked(host), rm.nodeTrust().nodeRemovalUntrackedTimeout());
    this.schedulerRef = LocalSingleton.init(SchedulerProtocol.Command.class,
        Behaviors.supervise(Scheduler.create(deps)).onFailure(SupervisorStrategy.restart()),
        b -> ClusterSingleton.get(system).init(SingletonActor.of(b, SCHEDULER)));
    ClusterSingleton.get(system).init(SingletonActor.of(Behaviors.supervise(
            CheckpointWriter.create(rm.checkpointInterval(), rm.checkpointMinEvents()))
        .onFailure(SupervisorStrategy.restart()), "scheduler-checkpoint"));
    ToScheduler notices = new ToScheduler(schedulerRef.proxy());
    sharding.init(Entity.of(ApplicationEntity.TYPE_KEY,
        ctx -> ApplicationEntity.create(ctx.getEntityId(), notices, clock, rm.snapshotEvery())));
    sharding.init(Entity.of(ContainerEntity.TYPE_KEY,
        ctx -> ContainerEntity.create(ctx.getEntityId(), clock, ctx.getShard())));
    sharding.init(Entity.of(NodeEntity.TYPE_KEY, ctx -> NodeEntity.create(ctx.getEntityId(), clock)));
    sharding.init(Entity.of(QueueEntity.TYPE_KEY, ctx -> QueueEntity.create(ctx.getEntityId())));
    sharding.init(Entity.of(ApplicationIdStamps.TYPE_KEY, ctx -> ApplicationIdStamps.create(ctx.getEntityId())));
    this.idStamp = takeIdStamp();
    this.admissions = system.systemActorOf(Behaviors.supervise(QueueAdmissions.create(
            q -> sharding.entityRefFor(QueueEntity.TYPE_KEY, q), timeout))
        .onFailure(SupervisorStrategy.restart()), "queue-admissions", Props.empty());
    this.queues = new MemberQueues(policy);
    MemberQueues memberQueues = this.queues;
    this.directory = AppDirectory.start(system, rm.maxCompletedApplications(),
        q -> sharding.entityRefFor(QueueEntity.TYPE_KEY, q), timeout,
        () -> memberQueues.clusterAdmission().isPresent());
    this.queuesRefreshed = system.systemActorOf(Topic.create(MemberQueues.Refreshed.class, MemberQueues.TOPIC),
        "queues-refreshed-topic", Props.empty());
    system.systemActorOf(MemberQueues.listener(queues, reload, queuesRefreshed), "queues-refreshed", Props.empty());
    this.hostListsRefreshed = system.systemActorOf(
        Topic.create(HostListsRefresh.Refreshed.class, HostListsRefresh.TOPIC), "host-lists-refreshed-topic",
        Props.empty());
    system.systemActorOf(HostListsRefresh.listener(guard.hostLists(), hostListsRefreshed), "host-lists-refreshed",
        Props.empty());
  }

  /**
   * {@code yarn rmadmin -refreshNodes}: this member reads the host lists again, the others hear of it
   * and read theirs, and the scheduler decommissions every running node the lists now refuse. A list
   * that cannot be read is refused with a message naming it and changes nothing.
   *
   * @param graceful a graceful decommission's timeout (empty: the configured default), or null for
   *     a forced one
   */
  public CompletionStage<String> refreshNodes(Optional<Duration> graceful) {
    long gracefulMillis = graceful == null ? -1 : gracefulTimeout(graceful).toMillis();
    MemberHostLists hosts = guard.hostLists();
    return CompletableFuture.supplyAsync(hosts::reload, system.dispatchers().lookup(DispatcherSelector.blocking()))
        .handle((lists, e) -> {
          if (e != null) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            throw new CompletionException(Rejection.badRequest(cause.getMessage()));
          }
          NodeTrust.logHosts(hosts);
          hostListsRefreshed.tell(Topic.publish(new HostListsRefresh.Refreshed()));
          return lists;
        })
        .thenCompose(lists -> AskPattern.<SchedulerProtocol.Command, SchedulerProtocol.Decommissioned>ask(schedulerRef.ref(),
            r -> new SchedulerProtocol.DecommissionRefusedHosts(lists.included().orElse(null), lists.excluded(),
                gracefulMillis, r), timeout, system.scheduler()))
        .thenApply(gone -> gone.nodeIds().isEmpty() ? "Nodes refreshed"
            : "Nodes refreshed; " + (gracefulMillis < 0 ? "decommissioned " : "decommissioning ")
                + String.join(", ", gone.nodeIds()));
  }

  /**
   * {@code PUT /ws/v1/cluster/nodes/{id}/state}: DECOMMISSIONING (for {@code graceful}, or the
   * configured default), DECOMMISSIONED, or RUNNING to recommission; answers the state it is in.
   */
  public CompletionStage<String> setNodeState(String nodeId, NodeState state, Optional<Duration> graceful) {
    long gracefulMillis = gracefulTimeout(graceful).toMillis();
    return AskPattern.<SchedulerProtocol.Command, StatusReply<String>>ask(schedulerRef.ref(),
            r -> new SchedulerProtocol.SetNodeState(nodeId, state, gracefulMillis, r), timeout, system.scheduler())
        .thenCompose(r -> r.isError() ? CompletableFuture.failedFuture(Rejection.badRequest(r.getError().getMessage()))
            : CompletableFuture.completedFuture(r.getValue()));
  }

  private Duration gracefulTimeout(Optional<Duration> given) {
    return given.orElse(rm.nodeTrust().gracefulDecommissionTimeout());
  }

  /**
   * Has the scheduler read its queue configuration again, and every member with it; a bad one is
   * refused and changes nothing.
   */
  public CompletionStage<String> refreshQueues() {
    return AskPattern.<SchedulerProtocol.Command, StatusReply<String>>ask(schedulerRef.ref(),
            SchedulerProtocol.Reconfigure::new, timeout, system.scheduler())
        .thenCompose(r -> r.isError() ? CompletableFuture.failedFuture(Rejection.badRequest(r.getError().getMessage()))
            : CompletableFuture.completedFuture(r.getValue()))
        .thenCompose(msg -> CompletableFuture.supplyAsync(reload, system.dispatchers().lookup(DispatcherSelector.blocking()))
            .handle((config, e) -> {
              // This member places with it before it answers; the others as soon as they hear.
              if (config != null) queues.swap(config);
              queuesRefreshed.tell(Topic.publish(new MemberQueues.Refreshed()));
              return msg;
            }));
  }

  /** The scheduling policy's state, as the scheduler REST view shows it. */
  public CompletionStage<SchedulerView> schedulerView() {
    return AskPattern.ask(schedulerRef.ref(), SchedulerProtocol.GetView::new, timeout, system.scheduler());
  }

  public long clusterTimestamp() {
    return clusterTimestamp;
  }

  public SchedulerSettings schedulerSettings() {
    return scheduler;
  }

  /** How NodeManagers' HTTP addresses are reached: {@code https} when the cluster serves HTTPS only. */
  public String nodeScheme() {
    return nodeScheme;
  }

  /** The authorization rules this member enforces. */
  public AccessRules access() {
    return access;
  }

  /** Who may submit to and administer each queue, as this member's queue configuration says. */
  public QueueAcls queueAcls() {
    return queues.queueAcls();
  }

  /**
   * A new application id, issued to {@code caller}: this incarnation's cluster-wide unique stamp and
   * the next sequence number, recorded by the application's entity as the caller's before it is
   * answered, so that whichever member the submission reaches, only the caller may submit under it.
   */
  public CompletionStage<String> newApplicationId(String caller) {
    return applicationIdStamp().thenApply(s -> Ids.applicationId(s, appSequence.incrementAndGet()))
        .thenCompose(id -> Retrying.<Done>ask(t -> app(id).askWithStatus(r -> new ApplicationEntity.Issue(caller, r), t),
            timeout).thenApply(issued -> id));
  }

  /** The timestamp in the application ids this member issues: YARN's cluster timestamp, {@code clusterInfo.id}. */
  public CompletionStage<Long> applicationIdStamp() {
    CompletionStage<Long> stamp = idStamp;
    if (stamp.toCompletableFuture().isCompletedExceptionally()) {
      stamp = takeIdStamp();
      idStamp = stamp;
    }
    return stamp;
  }

  private CompletionStage<Long> takeIdStamp() {
    // A repeated Take only wastes a stamp: whichever answer comes first is this incarnation's.
    return Retrying.<Long>ask(t -> sharding.entityRefFor(ApplicationIdStamps.TYPE_KEY, ApplicationIdStamps.ENTITY_ID)
        .ask(r -> new ApplicationIdStamps.Take(System.currentTimeMillis(), r), t), timeout);
  }

  // Client API

  /**
   * Places the submission, checks that its caller may submit to that queue, and admits it there.
   * Under an id issued to someone else, never issued, or used by another submission it is refused
   * before anything is written ({@link SubmitVerdict}); a repeat answers with the application as it
   * is and writes nothing.
   *
   * @param caller who submits: the submission's user, with the groups placement and the queue's
   *     ACLs look at
   */
  public CompletionStage<AppReport> submit(Submission raw, Caller caller) {
    Submission checked;
    try {
      checked = SubmissionRules.validate(raw, scheduler, rm.amMaxAttempts());
    } catch (Rejection r) {
      return CompletableFuture.failedFuture(r);
    }
    Placement placement = queues.place(raw.queue(), checked.user(), caller.groups());
    if (placement instanceof Placement.Rejected r) return CompletableFuture.failedFuture(Rejection.badRequest(r.reason()));
    Placement.Placed placed = (Placement.Placed) placement;
    QueuePath leaf = QueuePath.of(placed.queue());
    if (!access.canSubmit(caller, queues.queueAcls(), leaf)) {
      return CompletableFuture.failedFuture(Rejection.accessDenied("User " + caller.user()
          + " does not have permission to submit " + checked.appId() + " to queue " + leaf));
    }
    String version = queues.version();
    AdmissionTerms terms = queues.admission(leaf);
    Submission s = checked.withQueue(leaf.relative())
        .withPriority(queues.priorities().atSubmission(checked.priority(), leaf));
    return Retrying.<ApplicationEntity.SubmitChecked>ask(t -> app(s.appId()).ask(r -> new ApplicationEntity.CheckSubmit(s, r),
            t), timeout)
        .thenCompose(c -> switch (c.verdict()) {
          case REPEATED -> CompletableFuture.completedFuture(c.report());
          case FRESH -> claimParents(placed, leaf, version)
              .thenCompose(ok -> countInCluster(s, version, queues.clusterAdmission()))
              .thenCompose(ok -> admit(s, version, terms)
                  .exceptionallyCompose(e -> queues.clusterAdmission().isEmpty() ? CompletableFuture.failedFuture(e)
                      : leave(QueueEntity.CLUSTER, s.appId()).thenCompose(left -> CompletableFuture.failedFuture(e))));
          default -> CompletableFuture.failedFuture(c.verdict().rejection(s.appId(), s.user()));
        });
  }

  /**
   * The queues placement makes above the leaf, top down: each must become a parent, which its entity
   * refuses while it holds applications. Queues the configuration names need nothing.
   */
  private CompletionStage<Done> claimParents(Placement.Placed placed, QueuePath leaf, String version) {
    CompletionStage<Done> claims = CompletableFuture.completedFuture(Done.getInstance());
    for (String path : placed.queuesToCreate()) {
      QueuePath parent = QueuePath.of(path);
      if (parent.equals(leaf)) continue;
      claims = claims.thenCompose(ok -> Retrying.<Done>ask(t -> sharding.entityRefFor(QueueEntity.TYPE_KEY,
              parent.relative()).askWithStatus(r -> new QueueEntity.ClaimParent(version, r), t), timeout)
          .exceptionallyCompose(e -> CompletableFuture.failedFuture(Retrying.cause(e) instanceof StatusReply.ErrorMessage
              ? Rejection.badRequest("Application rejected by queue placement: cannot place in " + leaf + ": "
                  + Retrying.cause(e).getMessage())
              : Retrying.cause(e))));
    }
    return claims;
  }

  /**
   * The cluster-wide count admits the application first, when the policy keeps one; the leaf's
   * refusal takes it out again.
   */
  private CompletionStage<Done> countInCluster(Submission s, String version, Optional<AdmissionTerms> terms) {
    if (terms.isEmpty()) return CompletableFuture.completedFuture(Done.getInstance());
    return AskPattern.<QueueAdmissions.Command, Done>askWithStatus(admissions,
            r -> new QueueAdmissions.Admit(QueueEntity.CLUSTER, s.appId(), null, version, terms.get(), r),
            timeout.multipliedBy(2), system.scheduler())
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))));
  }

  /** Every step may be sent twice (see {@link Retrying}): each answers a repeat as it did the first. */
  private CompletionStage<AppReport> admit(Submission s, String version, AdmissionTerms terms) {
    // The admissions retry for it, and may hold it while the write before it finishes.
    return AskPattern.<QueueAdmissions.Command, Done>askWithStatus(admissions,
            r -> new QueueAdmissions.Admit(s.queue(), s.appId(), s.user(), version, terms, r), timeout.multipliedBy(2),
            system.scheduler())
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))))
        .thenCompose(q -> Retrying.<AppReport>ask(
                t -> app(s.appId()).askWithStatus(r -> new ApplicationEntity.Submit(s, r), t), timeout)
            .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e))))));
  }

  public CompletionStage<AppReport> application(String appId) {
    if (!Ids.isApplicationId(appId)) {
      return CompletableFuture.failedFuture(Rejection.badRequest("Invalid ApplicationId: " + appId));
    }
    return Retrying.<AppReport>ask(t -> app(appId).askWithStatus(ApplicationEntity.Get::new, t), timeout)
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(
            rejectionOr(e, Rejection.notFound("app with id: " + appId + " not found"))));
  }

  /**
   * @param authorize sees the application before it is killed, and refuses by throwing a
   *     {@link Rejection}
   */
  public CompletionStage<AppReport> kill(String appId, String diagnostics, Consumer<AppReport> authorize) {
    return application(appId).thenCompose(found -> {
      authorize.accept(found);
      return app(appId).<AppReport>askWithStatus(r -> new ApplicationEntity.Kill(diagnostics, r), timeout);
    });
  }

  /**
   * Runs the application at {@code priority}, capped by the policy's maximum; an ended one answers
   * as it is.
   *
   * @param authorize sees the application before its priority changes, and refuses by throwing a
   *     {@link Rejection}
   */
  public CompletionStage<AppReport> updatePriority(String appId, int priority, Consumer<AppReport> authorize) {
    return application(appId).thenCompose(found -> {
      authorize.accept(found);
      int effective = queues.priorities().capped(priority);
      return Retrying.<AppReport>ask(t -> app(appId).askWithStatus(r -> new ApplicationEntity.UpdatePriority(effective,
              r), t), timeout)
          .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))));
    });
  }

  /**
   * The AM token of an unmanaged application's current attempt, for its owner only (as YARN's report
   * carries it), while that attempt waits for its AM to register.
   *
   * @param caller the user asking; anyone else is refused with a {@link Rejection}
   */
  public CompletionStage<AmToken> amToken(String appId, String caller) {
    return application(appId).thenCompose(found -> {
      if (!found.user().equals(caller)) {
        throw Rejection.accessDenied("User " + caller + " cannot read the AM token of " + appId
            + ": only its owner " + found.user() + " may");
      }
      Attempt current = found.currentAttempt();
      if (!found.unmanagedAm() || current == null || current.state() != AttemptState.LAUNCHED) {
        throw Rejection.notFound("Application " + appId + " has no unmanaged AM waiting to register"
            + (found.unmanagedAm() ? "" : ": the ResourceManager launches its AM"));
      }
      return guard.amToken(current.attemptId(), found.user()).thenApply(t -> new AmToken(current.attemptId(), t));
    });
  }

  /** An attempt's AM token: what an unmanaged AM registers and allocates with. */
  public record AmToken(String attemptId, String token) {}

  /** As YARN's {@code updateApplicationTimeouts} for LIFETIME: the application ends at {@code expiryTime}. */
  public CompletionStage<AppReport> updateLifetime(String appId, long expiryTime, Consumer<AppReport> authorize) {
    return application(appId).thenCompose(found -> {
      authorize.accept(found);
      return Retrying.<AppReport>ask(t -> app(appId).askWithStatus(r -> new ApplicationEntity.UpdateLifetime(expiryTime,
              r), t), timeout)
          .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))));
    });
  }

  /**
   * Moves an ACCEPTED or RUNNING application to the leaf {@code queue}: the application notes the
   * target, the target's entity admits it under its terms (state, most applications in all and per
   * user), the application records the move, and the source's entity lets it go. A refusal changes
   * nothing the application or a queue reports. A member that dies part way leaves at most a queue
   * counting the application too long: until it ends, when it leaves every queue it noted.
   *
   * @param caller who moves it: they need submit (or administer) rights on the target when ACLs are on
   * @param authorize sees the application before it moves, and refuses by throwing a {@link Rejection}
   */
  public CompletionStage<AppReport> moveToQueue(String appId, String queue, Caller caller,
      Consumer<AppReport> authorize) {
    return application(appId).thenCompose(found -> {
      authorize.accept(found);
      if (found.state() != AppState.ACCEPTED && found.state() != AppState.RUNNING) {
        throw Rejection.badRequest("App in " + found.state() + " state cannot be moved.");
      }
      return moveTarget(queue).thenCompose(target -> move(found, target, caller));
    });
  }

  /** The scheduler's policy knows every leaf, those placement made at run time among them. */
  private CompletionStage<QueuePath> moveTarget(String queue) {
    return AskPattern.<SchedulerProtocol.Command, SchedulerProtocol.MoveTarget>ask(schedulerRef.ref(),
            r -> new SchedulerProtocol.GetMoveTarget(queue, r), timeout, system.scheduler())
        .thenApply(t -> {
          if (t.queue() == null) throw Rejection.badRequest(t.refusal());
          return QueuePath.of(t.queue());
        });
  }

  private CompletionStage<AppReport> move(AppReport found, QueuePath target, Caller caller) {
    String appId = found.id();
    if (!access.canSubmit(caller, queues.queueAcls(), target)) {
      throw Rejection.accessDenied("User " + caller.user() + " cannot submit applications to target queue or the "
          + "target queue doesn't exist: " + target + " while moving " + appId);
    }
    String source = found.queue();
    if (source.equals(target.relative())) return CompletableFuture.completedFuture(found);
    AppQueueMove move = new AppQueueMove(appId, found.user(), source, target.relative());
    return prepareMove(move)
        .thenCompose(prepared -> admitMove(move, queues.version(), queues.admission(target)))
        .thenCompose(admitted -> Retrying.<AppReport>ask(t -> app(appId).askWithStatus(
            r -> new ApplicationEntity.MoveToQueue(move.to(), r), t), timeout)
            .exceptionallyCompose(e -> leave(move.to(), appId)
                .thenCompose(left -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))))))
        .thenCompose(moved -> leave(move.from(), appId).thenApply(left -> {
          log.info("Application {} of {} moved from queue {} to {}", appId, move.user(), move.from(), move.to());
          return moved;
        }));
  }

  private record AppQueueMove(String appId, String user, String from, String to) {}

  private CompletionStage<Done> prepareMove(AppQueueMove move) {
    return Retrying.<Done>ask(t -> app(move.appId()).askWithStatus(
            r -> new ApplicationEntity.PrepareMove(move.to(), r), t), timeout)
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(rootMessage(e)))));
  }

  private CompletionStage<Done> admitMove(AppQueueMove move, String version, AdmissionTerms terms) {
    return AskPattern.<QueueAdmissions.Command, Done>askWithStatus(admissions,
            r -> new QueueAdmissions.Admit(move.to(), move.appId(), move.user(), version, terms, r),
            timeout.multipliedBy(2), system.scheduler())
        .exceptionallyCompose(e -> CompletableFuture.failedFuture(rejectionOr(e, Rejection.badRequest(
            "Cannot move " + move.appId() + " to queue " + move.to() + ": " + rootMessage(e)))));
  }

  /** The queue's entity lets the application go; it answers a repeat as the first. */
  private CompletionStage<Done> leave(String queue, String appId) {
    return Retrying.ask(t -> sharding.entityRefFor(QueueEntity.TYPE_KEY, queue)
        .askWithStatus(r -> new QueueEntity.RemoveApp(appId, r), t), timeout);
  }

  /** The live applications and the most recently ended ones (bobbin.rm.max-completed-applications). */
  public CompletionStage<List<AppReport>> applications() {
    return directory.list();
  }

  /** Applications per state, also counting those that ended and left {@link #applications()}. */
  public CompletionStage<AppCounts> applicationCounts() {
    return directory.counts();
  }

  public CompletionStage<SchedulerProtocol.UsageReport> usage() {
    return AskPattern.ask(schedulerRef.ref(), SchedulerProtocol.GetUsage::new, timeout, system.scheduler());
  }

  /** One application's usage: its report asks for nothing about the others. */
  public CompletionStage<SchedulerProtocol.AppUsageReport> usage(String appId) {
    return AskPattern.ask(schedulerRef.ref(), r -> new SchedulerProtocol.GetAppUsage(appId, r), timeout,
        system.scheduler());
  }

  /** One application's live containers, of every attempt. */
  public CompletionStage<SchedulerProtocol.AppContainers> containers(String appId) {
    return AskPattern.ask(schedulerRef.ref(), r -> new SchedulerProtocol.GetAppContainers(appId, r), timeout,
        system.scheduler());
  }

  public CompletionStage<SchedulerProtocol.NodesReport> nodes() {
    return AskPattern.ask(schedulerRef.ref(), SchedulerProtocol.GetNodes::new, timeout, system.scheduler());
  }

  // NM protocol

  /** What the NM and AM protocols check before a call is acted on, and add to its answer. */
  public ProtocolGuard guard() {
    return guard;
  }

  public CompletionStage<RegisterNodeResponse> registerNode(RegisterNodeRequest req) {
    var reg = new NodeEntity.Registration(req.nodeId(), req.host(), req.httpAddress(), req.rack(), req.capability());
    Optional<String> disallowed = guard.hostRefusal(req.host());
    if (disallowed.isPresent()) {
      // As YARN: a node decommissioning gracefully may register again, to finish what it runs.
      return nodes().thenCompose(known -> known.nodes().stream().anyMatch(n -> n.nodeId().equals(req.nodeId())
              && n.state() == NodeState.DECOMMISSIONING) ? admitNode(req, reg) : refuseHost(req, disallowed.get()));
    }
    return admitNode(req, reg);
  }

  private CompletionStage<RegisterNodeResponse> refuseHost(RegisterNodeRequest req, String why) {
    log.info("NodeManager {} refused: {}", req.nodeId(), why);
    return CompletableFuture.completedFuture(new RegisterNodeResponse(NodeAction.SHUTDOWN, why,
        clusterTimestamp, rm.nmHeartbeatInterval().toMillis(), List.of()));
  }

  private CompletionStage<RegisterNodeResponse> admitNode(RegisterNodeRequest req, NodeEntity.Registration reg) {
    if (req.capability() == null || req.capability().memory() < scheduler.minimumAllocationMb()
        || req.capability().vCores() < scheduler.minimumAllocationVcores()) {
      return CompletableFuture.completedFuture(new RegisterNodeResponse(NodeAction.SHUTDOWN,
          "NodeManager from " + req.host() + " doesn't satisfy minimum allocations, Sending SHUTDOWN signal to the NodeManager.",
          clusterTimestamp, rm.nmHeartbeatInterval().toMillis(), List.of()));
    }
    // The keys first: a node is registered only once it can be handed what it checks container tokens with.
    return guard.nodeWelcome().thenCompose(welcome -> sharding.entityRefFor(NodeEntity.TYPE_KEY, req.nodeId())
        .<NodeEntity.Report>askWithStatus(r -> new NodeEntity.Register(reg, r), timeout)
        .thenCompose(ok -> AskPattern.<SchedulerProtocol.Command, Long>ask(schedulerRef.ref(),
            r -> new SchedulerProtocol.NodeRegistered(reg, req.containerStatuses(), req.runningApplications(), r), timeout,
            system.scheduler()))
        .thenApply(epoch -> new RegisterNodeResponse(NodeAction.NORMAL, "", clusterTimestamp,
            rm.nmHeartbeatInterval().toMillis(), welcome.keys(), epoch, welcome.clusterId())));
  }

  public CompletionStage<NodeHeartbeatResponse> heartbeat(NodeHeartbeatRequest req) {
    return AskPattern.ask(schedulerRef.ref(), r -> new SchedulerProtocol.NodeHeartbeat(req, r), timeout, system.scheduler());
  }

  public CompletionStage<UnregisterNodeResponse> unregisterNode(UnregisterNodeRequest req) {
    if (req.nodeId() == null || req.nodeId().isBlank()) throw Rejection.badRequest("nodeId is required");
    return AskPattern.ask(schedulerRef.ref(), r -> new SchedulerProtocol.NodeUnregistered(req.nodeId(), r), timeout,
        system.scheduler());
  }

  // AM protocol

  /** Whether an attempt is its application's latest and has not failed or been killed. */
  private CompletionStage<Boolean> isCurrentAttempt(String attemptId) {
    String appId = Ids.applicationIdOfAttempt(attemptId);
    return Retrying.<AppReport>ask(t -> app(appId).askWithStatus(ApplicationEntity.Get::new, t), timeout)
        .handle((report, e) -> {
          if (e != null) {
            if (Retrying.cause(e) instanceof StatusReply.ErrorMessage) return false;
            throw new CompletionException(Retrying.cause(e));
          }
          var current = report.currentAttempt();
          return current != null && current.attemptId().equals(attemptId)
              && current.state() != AttemptState.FAILED && current.state() != AttemptState.KILLED;
        });
  }

  public CompletionStage<SchedulerProtocol.AmOutcome<RegisterAmResponse>> registerAm(String attemptId, RegisterAmRequest req) {
    String appId = Ids.applicationIdOfAttempt(attemptId);
    return app(appId).<AppReport>askWithStatus(r -> new ApplicationEntity.RegisterAm(attemptId,
            nullToEmpty(req.host()), req.rpcPort(), nullToEmpty(req.trackingUrl()), r), timeout)
        .thenCompose(ok -> AskPattern.<SchedulerProtocol.Command, SchedulerProtocol.AmOutcome<RegisterAmResponse>>ask(schedulerRef.ref(),
            r -> new SchedulerProtocol.AmRegistered(attemptId, r), timeout, system.scheduler()))
        .exceptionallyCompose(e -> refusedOrFailed(e, "InvalidApplicationMasterRequestException"));
  }

  public CompletionStage<SchedulerProtocol.AmOutcome<AllocateResponse>> allocate(String attemptId, AllocateRequest req) {
    return AskPattern.ask(schedulerRef.ref(), r -> new SchedulerProtocol.Allocate(attemptId, req, r), timeout, system.scheduler());
  }

  public CompletionStage<SchedulerProtocol.AmOutcome<FinishAmResponse>> finishAm(String attemptId, FinishAmRequest req) {
    String appId = Ids.applicationIdOfAttempt(attemptId);
    return app(appId).<AppReport>askWithStatus(r -> new ApplicationEntity.UnregisterAm(attemptId,
            req.finalApplicationStatus(), req.diagnostics(), req.trackingUrl(), r), timeout)
        .thenApply(ok -> new SchedulerProtocol.AmOutcome<>(new FinishAmResponse(true), null, null))
        .exceptionallyCompose(e -> refusedOrFailed(e, "ApplicationAttemptNotFoundException"));
  }

  /**
   * The entity's refusal becomes the AM's exception; anything else (an entity that did not answer
   * in time, say while it moves after a failover) stays a failure, which the route answers with 503
   * RetriableException so the AM tries again instead of giving up.
   */
  static <T> CompletionStage<SchedulerProtocol.AmOutcome<T>> refusedOrFailed(Throwable e, String exception) {
    Throwable t = Retrying.cause(e);
    return t instanceof StatusReply.ErrorMessage
        ? CompletableFuture.completedFuture(new SchedulerProtocol.AmOutcome<>(null, exception, t.getMessage()))
        : CompletableFuture.failedFuture(t);
  }

  private org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef<ApplicationEntity.Command> app(String appId) {
    return sharding.entityRefFor(ApplicationEntity.TYPE_KEY, appId);
  }

  private static Throwable rejectionOr(Throwable e, Rejection fallback) {
    Throwable t = Retrying.cause(e);
    if (t instanceof Rejection) return t;
    if (t instanceof StatusReply.ErrorMessage) {
      return new Rejection(fallback.status(), fallback.javaClassName(),
          fallback.status() == 404 ? fallback.getMessage() : t.getMessage());
    }
    return t;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t instanceof java.util.concurrent.CompletionException) t = t.getCause();
    return t.getMessage();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
