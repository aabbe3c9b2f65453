package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.protocol.NodeState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.Done;
import org.apache.pekko.actor.NoSerializationVerificationNeeded;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.pattern.StatusReply;

/**
 * The scheduler's effects port for tests. What the scheduler asks of Container entities arrives at
 * {@link #containers}, of Application entities at {@link #apps}, of the AM launcher at
 * {@link #launches}, and node and epoch writes at {@link #journal}. Allocations, completions and
 * look-ups wait for the test's answer; the other writes are answered as {@link Builder#writes} says
 * (acknowledged, by default).
 */
final class TestingEffects implements SchedulerEffects {
  /** A call the test answers. */
  record Pending<T, R>(T request, CompletableFuture<R> answer) implements NoSerializationVerificationNeeded {
    void answer(R value) {
      answer.complete(value);
    }

    void refuse(String why) {
      answer.completeExceptionally(new StatusReply.ErrorMessage(why));
    }

    /** As an ask that got no answer in time fails. */
    void timeOut() {
      answer.completeExceptionally(new TimeoutException("Ask timed out"));
    }
  }

  record Completion(String containerId, int exitStatus, String diagnostics) {}

  final TestProbe<Object> containers;
  final TestProbe<Object> apps;
  final TestProbe<AmLauncher.Launch> launches;
  final TestProbe<Write> journal;
  private final Function<Write, CompletionStage<Done>> writes;
  private final Function<AmLauncher.Launch, CompletionStage<Optional<String>>> launch;
  private final CompletionStage<RecoveredModel> recovered;
  private final EpochEntity.Started epoch;
  private final Supplier<PolicyConfig> policyConfig;

  private TestingEffects(ActorTestKit kit, Builder b) {
    this.containers = kit.createTestProbe();
    this.apps = kit.createTestProbe();
    this.launches = kit.createTestProbe();
    this.journal = kit.createTestProbe();
    this.writes = b.writes;
    this.launch = b.launch;
    this.recovered = b.recovered;
    this.epoch = b.epoch;
    this.policyConfig = b.policyConfig;
  }

  static Builder builder() {
    return new Builder();
  }

  static final class Builder {
    private Function<Write, CompletionStage<Done>> writes = w -> CompletableFuture.completedFuture(Done.getInstance());
    private Function<AmLauncher.Launch, CompletionStage<Optional<String>>> launch =
        l -> CompletableFuture.completedFuture(Optional.empty());
    private CompletionStage<RecoveredModel> recovered = CompletableFuture.completedFuture(RecoveredModel.EMPTY);
    private EpochEntity.Started epoch = new EpochEntity.Started(1, EpochEntity.Clocks.NONE);
    private Supplier<PolicyConfig> policyConfig = () -> {
      throw new IllegalStateException("no queue configuration in this test");
    };

    Builder writes(Function<Write, CompletionStage<Done>> answer) {
      this.writes = answer;
      return this;
    }

    Builder launch(Function<AmLauncher.Launch, CompletionStage<Optional<String>>> answer) {
      this.launch = answer;
      return this;
    }

    Builder recovered(CompletionStage<RecoveredModel> journal) {
      this.recovered = journal;
      return this;
    }

    Builder epoch(long epoch) {
      this.epoch = new EpochEntity.Started(epoch, EpochEntity.Clocks.NONE);
      return this;
    }

    Builder policyConfig(Supplier<PolicyConfig> read) {
      this.policyConfig = read;
      return this;
    }

    TestingEffects build(ActorTestKit kit) {
      return new TestingEffects(kit, this);
    }
  }

  private <T, R> CompletionStage<R> pending(TestProbe<Object> to, T request) {
    CompletableFuture<R> answer = new CompletableFuture<>();
    to.getRef().tell(new Pending<>(request, answer));
    return answer;
  }

  private CompletionStage<Done> write(TestProbe<?> to, Write w) {
    @SuppressWarnings("unchecked")
    TestProbe<Object> probe = (TestProbe<Object>) to;
    probe.getRef().tell(w);
    return writes.apply(w);
  }

  @Override
  public CompletionStage<Done> persistAllocation(ContainerEntity.Allocation allocation) {
    return pending(containers, allocation);
  }

  @Override
  public CompletionStage<Done> complete(String containerId, int exitStatus, String diagnostics) {
    return pending(containers, new Completion(containerId, exitStatus, diagnostics));
  }

  @Override
  public CompletionStage<Done> withdraw(String containerId) {
    return write(containers, new Write.Withdraw(containerId));
  }

  @Override
  public CompletionStage<Done> markRunning(String containerId) {
    return write(containers, new Write.MarkRunning(containerId));
  }

  @Override
  public CompletionStage<Done> assignAmContainer(ContainerEntity.Allocation allocation) {
    return write(apps, new Write.AssignAmContainer(allocation));
  }

  @Override
  public CompletionStage<Optional<String>> launchAm(AmLauncher.Launch l) {
    launches.getRef().tell(l);
    return launch.apply(l);
  }

  @Override
  public CompletionStage<Done> recordPreemption(PreemptionRecord record) {
    return write(apps, new Write.RecordPreemption(record));
  }

  @Override
  public CompletionStage<Done> cancelPreemption(PreemptionRecord record) {
    return write(apps, new Write.CancelPreemption(record));
  }

  @Override
  public CompletionStage<Done> reportAmFinished(String appId, String attemptId, int exitStatus, String diagnostics) {
    return write(apps, new Write.ReportAmFinished(appId, attemptId, exitStatus, diagnostics));
  }

  @Override
  public CompletionStage<Done> expireLifetime(String appId) {
    return write(apps, new Write.ExpireLifetime(appId));
  }

  @Override
  public CompletionStage<Done> recordDeliveries(String appId, String attemptId, List<String> containerIds) {
    return write(apps, new Write.RecordDeliveries(appId, attemptId, containerIds));
  }

  @Override
  public CompletionStage<Done> markNode(String nodeId, NodeState state, String reason, long until) {
    return write(journal, new Write.MarkNode(nodeId, state, reason, until));
  }

  @Override
  public CompletionStage<Done> forgetNode(String nodeId) {
    return write(journal, new Write.ForgetNode(nodeId));
  }

  /** Arrives at {@link #containers} as a {@code Pending<String, Optional<Report>>} of the container id. */
  @Override
  public CompletionStage<Optional<ContainerEntity.Report>> lookUpContainer(String containerId) {
    return pending(containers, containerId);
  }

  /** Arrives at {@link #apps} as a {@code Pending<String, Boolean>} of the application id. */
  @Override
  public CompletionStage<Boolean> hasEnded(String appId) {
    return pending(apps, appId);
  }

  @Override
  public CompletionStage<EpochEntity.Started> nextEpoch() {
    return CompletableFuture.completedFuture(epoch);
  }

  @Override
  public CompletionStage<Done> saveClocks(EpochEntity.Clocks clocks) {
    return write(journal, new Write.SaveClocks(clocks));
  }

  @Override
  public CompletionStage<RecoveredModel> readJournal() {
    return recovered;
  }

  @Override
  public CompletionStage<PolicyConfig> loadPolicyConfig() {
    return CompletableFuture.supplyAsync(policyConfig);
  }
}
