package dev.bobbin.protocol.rest;

import dev.bobbin.protocol.FinalApplicationStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.List;

/**
 * YARN's {@code AppInfo} ({@code GET /ws/v1/cluster/apps/{id}} and the list), with Bobbin's record
 * of the preemptions an application suffered and caused. {@code progress} is 0-100.
 */
public record AppInfo(
    String id,
    String user,
    String name,
    String queue,
    YarnApplicationState state,
    FinalApplicationStatus finalStatus,
    float progress,
    String trackingUI,
    String trackingUrl,
    String diagnostics,
    long clusterId,
    String applicationType,
    String applicationTags,
    int priority,
    long startedTime,
    long launchTime,
    long finishedTime,
    long elapsedTime,
    String amContainerLogs,
    String amHostHttpAddress,
    String amRPCAddress,
    String currentAppAttemptId,
    long allocatedMB,
    int allocatedVCores,
    int runningContainers,
    long preemptedResourceMB,
    int preemptedResourceVCores,
    int numNonAMContainerPreempted,
    int numAMContainerPreempted,
    Preemptions preemptionsSuffered,
    Preemptions preemptionsCaused,
    int maxAppAttempts) {

  /** {@code {"preemption":[...]}}, most recent last. */
  public record Preemptions(List<Preemption> preemption) {
    public Preemptions {
      preemption = preemption == null ? List.of() : List.copyOf(preemption);
    }
  }

  /** One container the scheduler took from {@code victimAppId} for {@code starvedAppId}, and why. */
  public record Preemption(
      String containerId,
      String victimAppId,
      String starvedAppId,
      String starvedQueue,
      String kind,
      Resource resource,
      boolean amContainer,
      long decidedAt,
      long killAt,
      String reason) {}
}
