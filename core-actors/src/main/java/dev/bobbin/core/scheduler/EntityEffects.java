package dev.bobbin.core.scheduler;

import dev.bobbin.core.base.Retrying;
import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.protocol.NodeState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/**
 * The scheduler's effects on a running cluster: asks to the sharded entities (each sent again
 * while it gets no answer, {@link Retrying}, within the ask timeout), the member's AM launcher, the
 * scheduler's epoch journal, the journal read of a recovery, and the queue configuration read on
 * the blocking-I/O dispatcher.
 */
public final class EntityEffects implements SchedulerEffects {
  /** Long enough to outlast a failover of the member that runs the entity. */
  private static final Duration WITHDRAW_WITHIN = Duration.ofSeconds(60);

  private final ActorSystem<?> system;
  private final Duration timeout;
  private final Function<String, RecipientRef<ContainerEntity.Command>> containers;
  private final Function<String, RecipientRef<ApplicationEntity.Command>> applications;
  private final Function<String, RecipientRef<NodeEntity.Command>> nodes;
  private final ActorRef<AmLauncher.Command> amLauncher;
  private final ActorRef<EpochEntity.Command> epochs;
  private final Supplier<CompletionStage<RecoveredModel>> journal;
  private final Supplier<PolicyConfig> policyConfig;

  /**
   * @param epochs the scheduler's own journal, a child of the scheduler
   * @param journal reads the applications, containers and nodes from the journal
   * @param policyConfig reads the queue configuration (blocking: files)
   */
  public EntityEffects(ActorSystem<?> system, Duration timeout,
      Function<String, RecipientRef<ContainerEntity.Command>> containers,
      Function<String, RecipientRef<ApplicationEntity.Command>> applications,
      Function<String, RecipientRef<NodeEntity.Command>> nodes, ActorRef<AmLauncher.Command> amLauncher,
      ActorRef<EpochEntity.Command> epochs, Supplier<CompletionStage<RecoveredModel>> journal,
      Supplier<PolicyConfig> policyConfig) {
    this.system = system;
    this.timeout = timeout;
    this.containers = containers;
    this.applications = applications;
    this.nodes = nodes;
    this.amLauncher = amLauncher;
    this.epochs = epochs;
    this.journal = journal;
    this.policyConfig = policyConfig;
  }

  private <C> CompletionStage<Done> ack(RecipientRef<C> to, Function<ActorRef<StatusReply<Done>>, C> command,
      Duration within) {
    return Retrying.ask(t -> AskPattern.<C, Done>askWithStatus(to, command::apply, t, system.scheduler()), within);
  }

  private <C> CompletionStage<Done> ack(RecipientRef<C> to, Function<ActorRef<StatusReply<Done>>, C> command) {
    return ack(to, command, timeout);
  }

  @Override
  public CompletionStage<Done> persistAllocation(ContainerEntity.Allocation allocation) {
    // One try: a write that got no answer is withdrawn, not sent again under the same id.
    return AskPattern.askWithStatus(containers.apply(allocation.containerId()),
        r -> new ContainerEntity.Allocate(allocation, r), timeout, system.scheduler());
  }

  @Override
  public CompletionStage<Done> complete(String containerId, int exitStatus, String diagnostics) {
    return ack(containers.apply(containerId), r -> new ContainerEntity.Complete(exitStatus, diagnostics, r));
  }

  @Override
  public CompletionStage<Done> withdraw(String containerId) {
    return ack(containers.apply(containerId), ContainerEntity.Withdraw::new, WITHDRAW_WITHIN);
  }

  @Override
  public CompletionStage<Done> markRunning(String containerId) {
    return ack(containers.apply(containerId), ContainerEntity.MarkRunning::new);
  }

  @Override
  public CompletionStage<Done> assignAmContainer(ContainerEntity.Allocation a) {
    return ack(applications.apply(a.appId()), r -> new ApplicationEntity.AssignAmContainer(a.attemptId(),
        a.containerId(), a.nodeId(), a.nodeHttpAddress(), r));
  }

  @Override
  public CompletionStage<Optional<String>> launchAm(AmLauncher.Launch launch) {
    // The launcher's start may wait for a thread, then for the connection and the answer.
    return AskPattern.<AmLauncher.Command, AmLauncher.Launched>ask(amLauncher, launch::withReplyTo,
            timeout.multipliedBy(3), system.scheduler())
        .thenApply(l -> Optional.ofNullable(l.error()));
  }

  @Override
  public CompletionStage<Done> recordPreemption(PreemptionRecord r) {
    List<CompletableFuture<Done>> writes = new ArrayList<>(List.of(
        ack(containers.apply(r.containerId()), reply -> new ContainerEntity.RequestPreemption(r, reply))
            .toCompletableFuture(),
        ack(applications.apply(r.victimAppId()), reply -> new ApplicationEntity.RecordPreemption(r, true, reply))
            .toCompletableFuture()));
    // The capacity policy preempts for queues, not for one starved application.
    if (r.starvedAppId() != null) {
      writes.add(ack(applications.apply(r.starvedAppId()),
          reply -> new ApplicationEntity.RecordPreemption(r, false, reply)).toCompletableFuture());
    }
    return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).thenApply(v -> Done.getInstance());
  }

  @Override
  public CompletionStage<Done> cancelPreemption(PreemptionRecord r) {
    return CompletableFuture.allOf(
            ack(containers.apply(r.containerId()), reply -> new ContainerEntity.CancelPreemption(r, reply))
                .toCompletableFuture(),
            ack(applications.apply(r.victimAppId()), reply -> new ApplicationEntity.CancelPreemption(r, reply))
                .toCompletableFuture())
        .thenApply(v -> Done.getInstance());
  }

  @Override
  public CompletionStage<Done> reportAmFinished(String appId, String attemptId, int exitStatus, String diagnostics) {
    return ack(applications.apply(appId),
        r -> new ApplicationEntity.AmContainerFinished(attemptId, exitStatus, diagnostics, r));
  }

  @Override
  public CompletionStage<Done> expireLifetime(String appId) {
    return ack(applications.apply(appId), ApplicationEntity.ExpireLifetime::new);
  }

  @Override
  public CompletionStage<Done> recordDeliveries(String appId, String attemptId, List<String> containerIds) {
    return ack(applications.apply(appId), r -> new ApplicationEntity.RecordDeliveries(attemptId, containerIds, r));
  }

  @Override
  public CompletionStage<Done> markNode(String nodeId, NodeState state, String reason, long until) {
    return Retrying.<NodeEntity.Report>ask(t -> AskPattern.askWithStatus(nodes.apply(nodeId),
            r -> new NodeEntity.MarkState(state, reason, until, r), t, system.scheduler()), timeout)
        .thenApply(r -> Done.getInstance());
  }

  @Override
  public CompletionStage<Done> forgetNode(String nodeId) {
    return Retrying.<NodeEntity.Report>ask(t -> AskPattern.askWithStatus(nodes.apply(nodeId),
            NodeEntity.Forget::new, t, system.scheduler()), timeout)
        .thenApply(r -> Done.getInstance());
  }

  @Override
  public CompletionStage<Optional<ContainerEntity.Report>> lookUpContainer(String containerId) {
    return AskPattern.<ContainerEntity.Command, StatusReply<ContainerEntity.Report>>ask(containers.apply(containerId),
            ContainerEntity.Get::new, timeout, system.scheduler())
        .thenApply(r -> r.isSuccess() ? Optional.of(r.getValue()) : Optional.empty());
  }

  @Override
  public CompletionStage<Boolean> hasEnded(String appId) {
    return AskPattern.<ApplicationEntity.Command, ApplicationEntity.Ended>ask(applications.apply(appId),
        ApplicationEntity.GetEnded::new, timeout, system.scheduler()).thenApply(ApplicationEntity.Ended::ended);
  }

  @Override
  public CompletionStage<EpochEntity.Started> nextEpoch() {
    return Retrying.ask(t -> AskPattern.ask(epochs, EpochEntity.Next::new, t, system.scheduler()), timeout);
  }

  @Override
  public CompletionStage<Done> saveClocks(EpochEntity.Clocks clocks) {
    return ack(epochs, r -> new EpochEntity.SaveClocks(clocks, r));
  }

  @Override
  public CompletionStage<RecoveredModel> readJournal() {
    return journal.get();
  }

  @Override
  public CompletionStage<PolicyConfig> loadPolicyConfig() {
    Executor blocking = system.dispatchers().lookup(DispatcherSelector.blocking());
    return CompletableFuture.supplyAsync(policyConfig, blocking);
  }
}
