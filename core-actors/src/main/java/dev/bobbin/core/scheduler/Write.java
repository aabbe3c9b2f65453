package dev.bobbin.core.scheduler;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.protocol.CborSerializable;
import dev.bobbin.protocol.NodeState;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/**
 * A decision the scheduler journals in an entity and goes on from at once. Each is idempotent, so
 * one that got no answer is sent again ({@link Scheduler} retries it) until it lands or is refused.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.CLASS)
sealed interface Write extends CborSerializable {
  CompletionStage<Done> run(SchedulerEffects effects);

  /** Ends an allocation whose write got no answer: it may still land, and no AM has it. */
  record Withdraw(String containerId) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.withdraw(containerId);
    }
  }

  record MarkRunning(String containerId) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.markRunning(containerId);
    }
  }

  record AssignAmContainer(ContainerEntity.Allocation allocation) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.assignAmContainer(allocation);
    }
  }

  record RecordPreemption(PreemptionRecord record) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.recordPreemption(record);
    }
  }

  record CancelPreemption(PreemptionRecord record) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.cancelPreemption(record);
    }
  }

  record ReportAmFinished(String appId, String attemptId, int exitStatus, String diagnostics) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.reportAmFinished(appId, attemptId, exitStatus, diagnostics);
    }
  }

  record ExpireLifetime(String appId) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.expireLifetime(appId);
    }
  }

  record RecordDeliveries(String appId, String attemptId, List<String> containerIds) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.recordDeliveries(appId, attemptId, containerIds);
    }
  }

  /** A dead node the host lists no longer track leaves the journal's nodes. */
  record ForgetNode(String nodeId) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.forgetNode(nodeId);
    }
  }

  /** @param until a DECOMMISSIONING node's graceful timeout (epoch ms); 0 for any other state */
  record MarkNode(String nodeId, NodeState state, String reason, long until) implements Write {
    MarkNode(String nodeId, NodeState state, String reason) {
      this(nodeId, state, reason, 0);
    }

    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.markNode(nodeId, state, reason, until);
    }
  }

  record SaveClocks(EpochEntity.Clocks clocks) implements Write {
    public CompletionStage<Done> run(SchedulerEffects e) {
      return e.saveClocks(clocks);
    }
  }
}
