package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.launch.AmLauncher;
import dev.bobbin.core.policy.PolicyConfig;
import dev.bobbin.protocol.NodeState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * How the scheduler reaches everything outside its model: the entities that make its decisions
 * durable, the AM launcher, its own journal and the queue configuration. Each call answers with a
 * stage that the scheduler pipes back to itself; a stage fails when the write was refused
 * ({@link org.apache.pekko.pattern.StatusReply.ErrorMessage}) or got no answer in time.
 */
public interface SchedulerEffects {
  /** Persists an allocation in its Container entity; the AM sees it only after this. */
  CompletionStage<Done> persistAllocation(ContainerEntity.Allocation allocation);

  CompletionStage<Done> complete(String containerId, int exitStatus, String diagnostics);

  /** Ends an allocation whose write got no answer: it may have landed, and no AM has it. */
  CompletionStage<Done> withdraw(String containerId);

  CompletionStage<Done> markRunning(String containerId);

  /** Records the attempt's AM container in its Application entity. */
  CompletionStage<Done> assignAmContainer(ContainerEntity.Allocation allocation);

  /** Starts an AM container on its NodeManager; answers with why the start failed, if it did. */
  CompletionStage<Optional<String>> launchAm(AmLauncher.Launch launch);

  /** Records a preemption with the container and with both applications. */
  CompletionStage<Done> recordPreemption(PreemptionRecord record);

  /** The container is not taken back after all: its entity forgets the preemption. */
  CompletionStage<Done> cancelPreemption(PreemptionRecord record);

  /** The attempt's AM container exited or its AM timed out: the attempt has failed. */
  CompletionStage<Done> reportAmFinished(String appId, String attemptId, int exitStatus, String diagnostics);

  /** The application's lifetime has run out: it is killed, unless its journalled deadline says otherwise. */
  CompletionStage<Done> expireLifetime(String appId);

  /** The attempt's AM has the completions of these containers. */
  CompletionStage<Done> recordDeliveries(String appId, String attemptId, List<String> containerIds);

  /**
   * The node's state (LOST, say) in its Node entity.
   *
   * @param until a DECOMMISSIONING node's graceful timeout (epoch ms); 0 for any other state
   */
  CompletionStage<Done> markNode(String nodeId, NodeState state, String reason, long until);

  /** The node leaves its Node entity, as if it had never registered. */
  CompletionStage<Done> forgetNode(String nodeId);

  /** What the journal holds of a container; empty when it holds nothing. */
  CompletionStage<Optional<ContainerEntity.Report>> lookUpContainer(String containerId);

  /** Whether the application has ended, or was never known. */
  CompletionStage<Boolean> hasEnded(String appId);

  /** Takes the next scheduler epoch, with the starvation clocks the previous scheduler left. */
  CompletionStage<EpochEntity.Started> nextEpoch();

  CompletionStage<Done> saveClocks(EpochEntity.Clocks clocks);

  /** Reads the applications, containers and nodes from the journal. */
  CompletionStage<RecoveredModel> readJournal();

  /** Reads the queue configuration again, off the scheduler's thread; fails naming what is wrong. */
  CompletionStage<PolicyConfig> loadPolicyConfig();
}
