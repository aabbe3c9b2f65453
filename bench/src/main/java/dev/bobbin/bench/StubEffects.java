package dev.bobbin.bench;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.core.scheduler.EpochEntity;
import dev.bobbin.core.scheduler.RecoveredModel;
import dev.bobbin.core.scheduler.SchedulerEffects;
import dev.bobbin.protocol.NodeState;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;

/**
 * The scheduler's effects in the scheduler bench: container writes answered by a stub actor (so a
 * write costs the scheduler the same ask and reply as against a real entity), AM launches told to
 * the driver, a real epoch journal, and every other write acknowledged at once.
 */
final class StubEffects implements SchedulerEffects {
  private static final CompletionStage<Done> DONE = CompletableFuture.completedFuture(Done.getInstance());

  private final ActorSystem<?> system;
  private final ActorRef<ContainerEntity.Command> containers;
  private final ActorRef<AmLauncher.Command> launcher;
  private final ActorRef<EpochEntity.Command> epochs;
  private final PolicyConfig policy;
  private final Duration timeout = Duration.ofSeconds(30);

  StubEffects(ActorSystem<?> system, ActorRef<ContainerEntity.Command> containers, ActorRef<AmLauncher.Command> launcher,
      ActorRef<EpochEntity.Command> epochs, PolicyConfig policy) {
    this.system = system;
    this.containers = containers;
    this.launcher = launcher;
    this.epochs = epochs;
    this.policy = policy;
  }

  @Override
  public CompletionStage<Done> persistAllocation(ContainerEntity.Allocation allocation) {
    return AskPattern.askWithStatus(containers, r -> new ContainerEntity.Allocate(allocation, r), timeout,
        system.scheduler());
  }

  @Override
  public CompletionStage<Done> complete(String containerId, int exitStatus, String diagnostics) {
    return AskPattern.askWithStatus(containers, r -> new ContainerEntity.Complete(exitStatus, diagnostics, r), timeout,
        system.scheduler());
  }

  @Override
  public CompletionStage<Done> withdraw(String containerId) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> markRunning(String containerId) {
    return AskPattern.askWithStatus(containers, ContainerEntity.MarkRunning::new, timeout, system.scheduler());
  }

  @Override
  public CompletionStage<Done> assignAmContainer(ContainerEntity.Allocation allocation) {
    return DONE;
  }

  @Override
  public CompletionStage<Optional<String>> launchAm(AmLauncher.Launch launch) {
    launcher.tell(launch);
    return CompletableFuture.completedFuture(Optional.empty());
  }

  @Override
  public CompletionStage<Done> recordPreemption(PreemptionRecord record) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> cancelPreemption(PreemptionRecord record) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> reportAmFinished(String appId, String attemptId, int exitStatus, String diagnostics) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> expireLifetime(String appId) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> recordDeliveries(String appId, String attemptId, List<String> containerIds) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> markNode(String nodeId, NodeState state, String reason, long until) {
    return DONE;
  }

  @Override
  public CompletionStage<Done> forgetNode(String nodeId) {
    return DONE;
  }

  @Override
  public CompletionStage<Optional<ContainerEntity.Report>> lookUpContainer(String containerId) {
    return CompletableFuture.completedFuture(Optional.empty());
  }

  @Override
  public CompletionStage<Boolean> hasEnded(String appId) {
    return CompletableFuture.completedFuture(true);
  }

  @Override
  public CompletionStage<EpochEntity.Started> nextEpoch() {
    return AskPattern.ask(epochs, EpochEntity.Next::new, timeout, system.scheduler());
  }

  @Override
  public CompletionStage<Done> saveClocks(EpochEntity.Clocks clocks) {
    return AskPattern.askWithStatus(epochs, r -> new EpochEntity.SaveClocks(clocks, r), timeout, system.scheduler());
  }

  @Override
  public CompletionStage<RecoveredModel> readJournal() {
    return CompletableFuture.completedFuture(RecoveredModel.EMPTY);
  }

  @Override
  public CompletionStage<PolicyConfig> loadPolicyConfig() {
    return CompletableFuture.completedFuture(policy);
  }
}
