package dev.bobbin.core.scheduler;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cleaning up ended applications on their nodes. As YARN does, the nodes an application ran on are
 * told to clean it up once it has ended; one whose AM unregistered has its AM container left to exit
 * first (YARN's FINISHING), for at most the AM expiry interval, and its clean-up waits for it.
 */
final class AppCleanup {
  private final SchedulerModel model;
  /** AM containers left to exit, by container id. */
  private final Map<String, Finishing> finishing = new HashMap<>();
  private final RanOn ranOn = new RanOn();

  private record Finishing(String appId, long killAt) {}

  AppCleanup(SchedulerModel model) {
    this.model = model;
  }

  /** The application has a container on the node. */
  void ranOn(String appId, String nodeId) {
    ranOn.add(appId, nodeId);
  }

  /** The application ended with its AM unregistered: its AM container is left to exit until {@code killAt}. */
  void leaveAmToExit(String containerId, String appId, long killAt) {
    finishing.put(containerId, new Finishing(appId, killAt));
  }

  /** AM containers left to exit, by id. */
  Set<String> amsLeftToExit() {
    return Collections.unmodifiableSet(finishing.keySet());
  }

  /** The container's completion is durable: if it was an AM container left to exit, its application is cleaned up. */
  void ended(String containerId) {
    Finishing finished = finishing.remove(containerId);
    if (finished != null) cleanUpOnNodes(finished.appId());
  }

  /**
   * The AM containers left to exit whose time is up, each returned once: those still live are to be
   * killed; for those gone already, their applications are cleaned up on their nodes now.
   */
  List<SchedContainer> amsOverdue(long now) {
    List<SchedContainer> overdue = new ArrayList<>();
    for (Map.Entry<String, Finishing> e : List.copyOf(finishing.entrySet())) {
      Finishing f = e.getValue();
      if (f.killAt() > now) continue;
      SchedContainer c = model.container(e.getKey());
      if (c == null) {
        finishing.remove(e.getKey());
        cleanUpOnNodes(f.appId());
      } else {
        finishing.put(e.getKey(), new Finishing(f.appId(), Long.MAX_VALUE));
        overdue.add(c);
      }
    }
    return overdue;
  }

  /**
   * The nodes a NodeManager's registration says still hold something of these applications: a
   * member that took over knows only where live containers run, and an application's earlier
   * containers may have finished on other nodes.
   *
   * @return the reported applications the scheduler does not follow, neither live nor with an AM
   *     container left to exit: each has either ended, its clean-up lost with a member, or is
   *     between attempts; {@link #reportedAppLookedUp} takes the answer
   */
  List<String> ranOnReported(String nodeId, List<String> applications) {
    List<String> unknown = new ArrayList<>();
    for (String appId : applications) {
      if (model.app(appId) != null || isFinishing(appId)) ranOn.add(appId, nodeId);
      else unknown.add(appId);
    }
    return unknown;
  }

  /**
   * What the application said of itself, for a node that reported it. As YARN's RM does for an
   * ended or unknown application a node reports, the node is told to clean it up; one between
   * attempts keeps the node for its end.
   */
  void reportedAppLookedUp(String nodeId, String appId, boolean ended) {
    if (ended && model.app(appId) == null && !isFinishing(appId)) {
      SchedNode node = model.node(nodeId);
      if (node != null) node.appsToCleanup.add(appId);
    } else {
      ranOn.add(appId, nodeId);
    }
  }

  private boolean isFinishing(String appId) {
    for (Finishing f : finishing.values()) {
      if (f.appId().equals(appId)) return true;
    }
    return false;
  }

  /** The application has ended on the nodes: each node it ran on is told once, with its next response. */
  void cleanUpOnNodes(String appId) {
    for (String nodeId : ranOn.take(appId)) {
      SchedNode node = model.node(nodeId);
      if (node != null) node.appsToCleanup.add(appId);
    }
  }

  /** Applications with nodes to clean up that neither run nor wait for their AM container to exit. */
  List<String> endedAppsWithNodes() {
    Set<String> finishingApps = new HashSet<>();
    finishing.values().forEach(f -> finishingApps.add(f.appId()));
    List<String> out = new ArrayList<>();
    for (String appId : ranOn.apps()) {
      if (model.app(appId) == null && !finishingApps.contains(appId)) out.add(appId);
    }
    return out;
  }

  /** Forgets where an application ran without telling its nodes: it never existed. */
  void forgetNodesOf(String appId) {
    ranOn.take(appId);
  }
}
