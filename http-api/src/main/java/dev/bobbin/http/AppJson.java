package dev.bobbin.http;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.app.AppReport;
import dev.bobbin.core.app.Attempt;
import dev.bobbin.core.scheduler.SchedulerProtocol;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.YarnApplicationState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YARN's {@code AppInfo} and {@code AppAttemptInfo} shapes. A caller who may not view an
 * application sees what Hadoop shows such a caller: who, what, where and in which state, without
 * its diagnostics, times, tracking URL, AM address and logs, usage and preemptions.
 */
final class AppJson {
  private AppJson() {}

  /**
   * @param viewer whether the caller may view the application (its VIEW_APP rights)
   * @param nodeScheme how NodeManagers' HTTP addresses are reached: {@code http} or {@code https}
   * @param rmBase the RM's address as the caller reached it ({@code http://host:port}): a running or
   *     ended application whose AM gave no tracking URL is tracked at its report there, as YARN's
   *     proxy sends such an application's tracking link to the RM's page of it
   */
  static Map<String, Object> app(AppReport r, SchedulerProtocol.AppUsage usage, long clusterId, Resource cluster, long now,
      boolean viewer, String nodeScheme, String rmBase) {
    return viewer ? app(r, usage, clusterId, cluster, now, nodeScheme, rmBase) : restricted(r, usage, clusterId);
  }

  /** What anyone who may list the application sees first: who, what, where, how far. */
  private static Map<String, Object> summary(AppReport r, SchedulerProtocol.AppUsage usage) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", r.id());
    m.put("user", r.user());
    m.put("name", r.name());
    m.put("queue", QueuePath.of(r.queue()).full());
    m.put("state", r.state().toYarn().name());
    m.put("finalStatus", r.finalStatus().name());
    m.put("progress", r.state().isFinal() ? 100.0f : usage == null ? 0f : usage.progress() * 100f);
    return m;
  }

  private static Map<String, Object> restricted(AppReport r, SchedulerProtocol.AppUsage usage, long clusterId) {
    Map<String, Object> m = summary(r, usage);
    m.put("trackingUI", "UNASSIGNED");
    m.put("diagnostics", "");
    m.put("clusterId", clusterId);
    m.put("applicationType", r.applicationType());
    m.put("applicationTags", String.join(",", r.tags()));
    m.put("priority", r.priority());
    m.put("startedTime", 0);
    m.put("launchTime", 0);
    m.put("finishedTime", 0);
    m.put("elapsedTime", 0);
    m.put("maxAppAttempts", r.maxAttempts());
    return m;
  }

  private static Map<String, Object> app(AppReport r, SchedulerProtocol.AppUsage usage, long clusterId, Resource cluster,
      long now, String nodeScheme, String rmBase) {
    Map<String, Object> m = summary(r, usage);
    Attempt cur = r.currentAttempt();
    boolean running = !r.state().isFinal();
    String url = tracking(r, cur, rmBase);
    m.put("trackingUI", url.isEmpty() ? "UNASSIGNED" : running ? "ApplicationMaster" : "History");
    if (!url.isEmpty()) m.put("trackingUrl", url);
    // What the scheduler says keeps it waiting, as YARN reports an application it has not activated.
    boolean held = running && r.diagnostics().isEmpty() && usage != null && !usage.diagnostics().isEmpty();
    m.put("diagnostics", held ? usage.diagnostics() : r.diagnostics());
    m.put("clusterId", clusterId);
    m.put("applicationType", r.applicationType());
    m.put("applicationTags", String.join(",", r.tags()));
    m.put("priority", r.priority());
    m.put("startedTime", r.startedTime());
    m.put("launchTime", cur == null ? 0 : cur.startTime());
    m.put("finishedTime", r.finishedTime());
    m.put("elapsedTime", (r.finishedTime() > 0 ? r.finishedTime() : now) - r.startedTime());
    if (cur != null && !cur.amContainerId().isEmpty()) {
      m.put("amContainerLogs", nodeScheme + "://" + cur.amNodeHttpAddress() + "/node/containerlogs/" + cur.amContainerId() + "/" + r.user());
      m.put("amHostHttpAddress", cur.amNodeHttpAddress());
      m.put("currentAppAttemptId", cur.attemptId());
    }
    if (cur != null && !cur.amHost().isEmpty()) m.put("amRPCAddress", cur.amHost() + ":" + cur.amRpcPort());
    Resource used = usage == null || !running ? Resource.NONE : usage.allocated();
    m.put("allocatedMB", running ? used.memory() : -1);
    m.put("allocatedVCores", running ? used.vCores() : -1);
    m.put("reservedMB", running ? 0 : -1);
    m.put("reservedVCores", running ? 0 : -1);
    m.put("runningContainers", running && usage != null ? usage.runningContainers() : 0);
    m.put("memorySeconds", 0);
    m.put("vcoreSeconds", 0);
    m.put("queueUsagePercentage", 0.0f);
    m.put("clusterUsagePercentage", cluster.memory() > 0 ? 100f * used.memory() / cluster.memory() : 0f);
    var p = r.preemptions();
    m.put("preemptedResourceMB", p.preemptedResource().memory());
    m.put("preemptedResourceVCores", p.preemptedResource().vCores());
    m.put("numNonAMContainerPreempted", p.nonAmContainersPreempted());
    m.put("numAMContainerPreempted", p.amContainersPreempted());
    // Bobbin's own: every preemption with the reason that made it.
    m.put("preemptionsSuffered", Map.of("preemption", p.suffered()));
    m.put("preemptionsCaused", Map.of("preemption", p.caused()));
    m.put("preemptedMemorySeconds", 0);
    m.put("preemptedVcoreSeconds", 0);
    // No logAggregationStatus: YARN's NodeManagers report how each application's aggregation went in
    // their heartbeats, Bobbin's do not, so the RM cannot know it; none is better than a wrong one.
    m.put("unmanagedApplication", r.unmanagedAm());
    m.put("amNodeLabelExpression", "");
    m.put("maxAppAttempts", r.maxAttempts());
    // Bobbin's own: the failed attempts that count against maxAppAttempts now, and the window they count in.
    m.put("attemptFailuresCounted", r.attemptFailuresCounted(now));
    m.put("attemptFailuresValidityInterval", r.attemptFailuresValidityInterval());
    m.put("timeouts", AppTimeoutJson.timeouts(r, now));
    return m;
  }

  /**
   * YARN's tracking URL: none before the application runs; then the one its AM registered or
   * unregistered with, given a scheme if it has none, or else the application's report on the RM.
   */
  private static String tracking(AppReport r, Attempt cur, String rmBase) {
    YarnApplicationState state = r.state().toYarn();
    if (state == YarnApplicationState.NEW || state == YarnApplicationState.NEW_SAVING
        || state == YarnApplicationState.SUBMITTED || state == YarnApplicationState.ACCEPTED) {
      return "";
    }
    String url = cur == null ? "" : cur.trackingUrl();
    if (url.isEmpty() || url.equalsIgnoreCase("N/A")) {
      return rmBase.isEmpty() ? "" : rmBase + "/ws/v1/cluster/apps/" + r.id();
    }
    return url.contains("://") ? url : (rmBase.startsWith("https") ? "https://" : "http://") + url;
  }

  /** @param viewer whether the caller may view the application: others see no logs link or diagnostics */
  static Map<String, Object> attempts(AppReport r, boolean viewer, String nodeScheme) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Attempt a : r.attempts()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", a.number());
      m.put("appAttemptId", a.attemptId());
      m.put("startTime", a.startTime());
      m.put("finishedTime", a.finishTime());
      m.put("containerId", a.amContainerId());
      m.put("nodeHttpAddress", viewer ? a.amNodeHttpAddress() : "");
      m.put("nodeId", a.amNodeId());
      m.put("logsLink", a.amContainerId().isEmpty() || !viewer ? ""
          : nodeScheme + "://" + a.amNodeHttpAddress() + "/node/containerlogs/" + a.amContainerId() + "/" + r.user());
      m.put("blacklistedNodes", "");
      m.put("nodesBlacklistedBySystem", "");
      m.put("appAttemptState", a.state().name());
      m.put("exitStatus", a.exitStatus());
      m.put("diagnosticsInfo", viewer ? a.diagnostics() : "");
      out.add(m);
    }
    return Map.of("appAttempts", Map.of("appAttempt", out));
  }

  /** YARN's {@code ContainerInfo} list of live containers; {@code startedTime} is their allocation, as in YARN. */
  static Map<String, Object> containers(List<SchedulerProtocol.AppContainer> containers, String user, String nodeScheme,
      long now) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (SchedulerProtocol.AppContainer c : containers) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("containerId", c.containerId());
      m.put("allocatedMB", c.resource().memory());
      m.put("allocatedVCores", c.resource().vCores());
      m.put("assignedNodeId", c.nodeId());
      m.put("priority", c.priority());
      m.put("startedTime", c.allocatedTime());
      m.put("finishedTime", 0);
      m.put("elapsedTime", Math.max(0, now - c.allocatedTime()));
      m.put("logUrl", nodeScheme + "://" + c.nodeHttpAddress() + "/node/containerlogs/" + c.containerId() + "/" + user);
      m.put("containerExitStatus", 0);
      m.put("containerState", c.running() ? "RUNNING" : "NEW");
      m.put("nodeHttpAddress", nodeScheme + "://" + c.nodeHttpAddress());
      m.put("nodeId", c.nodeId());
      m.put("allocatedResources", List.of(Map.of("key", "memory-mb", "value", c.resource().memory()),
          Map.of("key", "vcores", "value", c.resource().vCores())));
      out.add(m);
    }
    return Map.of("containers", Map.of("container", out));
  }
}
