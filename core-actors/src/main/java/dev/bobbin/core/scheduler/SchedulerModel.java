package dev.bobbin.core.scheduler;

import dev.bobbin.core.app.ApplicationEntity;
import dev.bobbin.core.app.AppState;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.fair.PreemptionDecision;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the scheduler knows: nodes, applications with their current attempt and asks, live
 * containers, and the containers being preempted, adopted or left to finish. Only the scheduler
 * actor uses it, on its own thread; it sends nothing, so rebuilding it from the journal
 * ({@link #recover}) is a plain function of what was read.
 */
final class SchedulerModel {
  final Map<String, SchedNode> nodes = new LinkedHashMap<>();
  final Map<String, SchedApp> apps = new LinkedHashMap<>();
  final Waiting waiting = new Waiting();
  final Map<String, SchedApp> appsByAttempt = new HashMap<>();
  /** Live containers, by id; changed through {@link #track} and {@link #untrack} only. */
  final Map<String, SchedContainer> containers = new HashMap<>();
  /** What the AM containers in {@link #containers} hold, for the fifo policy's AM limit. */
  private Resource amUsed = Resource.NONE;
  /** Containers the Fair policy is taking back, with why; killed at {@code killAt}. */
  final Map<String, PreemptionRecord> preempting = new LinkedHashMap<>();
  /** Unknown containers NMs reported, whose Container entities are being asked about. */
  final Set<String> adopting = new HashSet<>();
  /**
   * AM containers of applications whose AM unregistered, by container id: as in YARN's FINISHING
   * state they are left to exit on their own, and the application's clean-up on the nodes waits
   * for them, for at most the AM expiry interval.
   */
  final Map<String, Finishing> finishing = new HashMap<>();

  record Finishing(String appId, long killAt) {}

  /**
   * The ALLOCATED containers in {@link #containers}, oldest allocation first, so that the tick's
   * allocation expiry reads only those it expires: it runs five times a second, and walking every
   * live container each time grew with the cluster.
   */
  private final NavigableSet<SchedContainer> unstarted = new TreeSet<>(
      Comparator.<SchedContainer>comparingLong(c -> c.allocatedTime).thenComparing(SchedContainer::id));
  /**
   * Applications whose AM the expiry watches, least recently heard from first: {@link #heardFromAm}
   * moves one to the end, {@link #removeApp} takes it out, and a new attempt not yet heard from is
   * dropped when the expiry reaches it.
   */
  private final Map<String, SchedApp> amsByLastContact = new LinkedHashMap<>();
  /**
   * The ids in {@link #containers} by application, any attempt: an attempt's or application's end
   * releases its own containers without walking every live one.
   */
  private final Map<String, Set<String>> liveByApp = new HashMap<>();
  /**
   * The nodes each application had containers on, as in YARN's "ran nodes": when it ends, only
   * these are told to clean it up, not every node. Kept for live applications, those between
   * attempts and those whose AM container is left to finish; {@link #cleanUpOnNodes} takes an
   * application's entry.
   */
  private final Map<String, Set<String>> ranOn = new HashMap<>();

  private void track(String id, SchedContainer c) {
    SchedContainer before = containers.put(id, c);
    if (before != null) unstarted.remove(before);
    String appId = c.allocation.appId();
    liveByApp.computeIfAbsent(appId, k -> new LinkedHashSet<>()).add(id);
    addRanOn(appId, c.allocation.nodeId());
    if (before != null && before.allocation.am()) amUsed = amUsed.minus(before.allocation.resource());
    if (c.allocation.am()) amUsed = amUsed.plus(c.allocation.resource());
    if (c.phase == SchedContainer.Phase.ALLOCATED) unstarted.add(c);
  }

  void untrack(String id) {
    SchedContainer c = containers.remove(id);
    if (c == null) return;
    unstarted.remove(c);
    Set<String> ofApp = liveByApp.get(c.allocation.appId());
    if (ofApp != null && ofApp.remove(id) && ofApp.isEmpty()) liveByApp.remove(c.allocation.appId());
    if (c.allocation.am()) amUsed = amUsed.minus(c.allocation.resource());
  }

  /** The application's live containers, any attempt, in the order they were tracked. */
  List<SchedContainer> liveContainersOf(String appId) {
    Set<String> ids = liveByApp.get(appId);
    if (ids == null) return List.of();
    List<SchedContainer> out = new ArrayList<>(ids.size());
    for (String id : ids) out.add(containers.get(id));
    return out;
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
      if (apps.containsKey(appId) || isFinishing(appId)) addRanOn(appId, nodeId);
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
    if (ended && !apps.containsKey(appId) && !isFinishing(appId)) {
      SchedNode node = nodes.get(nodeId);
      if (node != null) node.appsToCleanup.add(appId);
    } else {
      addRanOn(appId, nodeId);
    }
  }

  private void addRanOn(String appId, String nodeId) {
    ranOn.computeIfAbsent(appId, k -> new HashSet<>()).add(nodeId);
  }

  private boolean isFinishing(String appId) {
    for (Finishing f : finishing.values()) {
      if (f.appId().equals(appId)) return true;
    }
    return false;
  }

  /** The application has ended on the nodes: each node it ran on is told once, with its next response. */
  void cleanUpOnNodes(String appId) {
    Set<String> ran = ranOn.remove(appId);
    if (ran == null) return;
    for (String nodeId : ran) {
      SchedNode node = nodes.get(nodeId);
      if (node != null) node.appsToCleanup.add(appId);
    }
  }

  /** The one way a tracked container changes phase, so that {@link #unstartedBefore} stays exact. */
  void setPhase(SchedContainer c, SchedContainer.Phase phase) {
    boolean tracked = containers.get(c.id()) == c;
    if (tracked) unstarted.remove(c);
    c.phase = phase;
    if (tracked && phase == SchedContainer.Phase.ALLOCATED) unstarted.add(c);
  }

  /** Durable allocations that no NM has reported started, allocated before {@code cutoff}; oldest first. */
  List<SchedContainer> unstartedBefore(long cutoff) {
    List<SchedContainer> out = new ArrayList<>();
    for (SchedContainer c : unstarted) {
      if (c.allocatedTime >= cutoff) break;
      out.add(c);
    }
    return out;
  }

  /** The application has ended: it is no longer scheduled, nor its AM watched. */
  SchedApp removeApp(String appId) {
    amsByLastContact.remove(appId);
    return apps.remove(appId);
  }

  /** The attempt's AM registered or allocated, or its container became durable, at {@code now}. */
  void heardFromAm(SchedApp app, long now) {
    app.lastAmContact = now;
    amsByLastContact.remove(app.appId);
    amsByLastContact.put(app.appId, app);
  }

  /**
   * Applications whose current attempt's AM has not been heard from since {@code cutoff}, least
   * recently first. Contacts are stamped with the scheduler's clock as they come, so the order is
   * that of their times; a clock stepped back could delay an expiry by at most the step.
   */
  List<SchedApp> amsSilentSince(long cutoff) {
    List<SchedApp> out = new ArrayList<>();
    for (Iterator<SchedApp> it = amsByLastContact.values().iterator(); it.hasNext(); ) {
      SchedApp app = it.next();
      if (app.lastAmContact == 0 || apps.get(app.appId) != app) {
        it.remove();
      } else if (app.lastAmContact >= cutoff) {
        break;
      } else {
        out.add(app);
      }
    }
    return out;
  }

  Resource amUsed() {
    return amUsed;
  }

  /**
   * Counts a live container against its node at once, so that the node's space is not given out
   * twice. The one way a container gets onto a node: placed, recovered or adopted.
   */
  void countOn(SchedNode node, SchedContainer c) {
    track(c.id(), c);
    node.containers.add(c.id());
    node.allocated = node.allocated.plus(c.allocation.resource());
  }

  /** A placement whose write failed: its node and application no longer count it. */
  void unplace(SchedContainer c) {
    untrack(c.id());
    SchedNode node = nodes.get(c.allocation.nodeId());
    if (node != null && node.containers.remove(c.id())) node.allocated = node.allocated.minus(c.allocation.resource());
    // By application, not attempt: a placement of an attempt that has since ended counts against it too.
    SchedApp app = apps.get(c.allocation.appId());
    if (app != null) app.remove(c);
  }

  /**
   * Counts a placement against its node and its application at once, before its write: a node's
   * allocated resources include every placement whose write is still pending.
   *
   * @return the placed container, or null when the assignment is stale (its attempt or node has
   *     gone, or the node no longer has the room): a plan is made from views that earlier
   *     placements may have changed
   */
  SchedContainer place(Assignment a, long epoch, long now) {
    SchedApp app = apps.get(a.appId());
    SchedNode node = nodes.get(a.nodeId());
    if (app == null || node == null || !a.attemptId().equals(app.attemptId)
        || !node.view().free().fits(a.capability())) {
      return null;
    }
    String containerId = Ids.containerId(a.attemptId(), epoch, app.nextContainerSeq++);
    NodeEntity.Registration reg = node.registration;
    ContainerEntity.Allocation alloc = new ContainerEntity.Allocation(containerId, a.appId(), a.attemptId(),
        node.id(), reg.httpAddress(), a.capability(), a.ask().priority(), a.ask().allocationRequestId(), a.ask().am());
    SchedContainer c = new SchedContainer(alloc, now);
    countOn(node, c);
    app.add(c);
    app.setAsks(Asks.afterPlacement(List.copyOf(app.asks()), a.ask(), reg.host(), node.id(), reg.rack()));
    return c;
  }

  /**
   * The container is ending: its application stops counting it, and so does its node, unless the
   * node holds it because its start may still be on the way. Repeats change nothing.
   */
  void startCompletion(SchedContainer c) {
    if (c.phase == SchedContainer.Phase.COMPLETING) return;
    SchedApp owner = apps.get(c.allocation.appId());
    if (owner != null) owner.ending(c);
    setPhase(c, SchedContainer.Phase.COMPLETING);
    SchedNode node = nodes.get(c.allocation.nodeId());
    if (node != null && node.containers.remove(c.id()) && !node.held.containsKey(c.id())) {
      node.allocated = node.allocated.minus(c.allocation.resource());
      node.toKill.remove(c.id());
    }
  }

  /**
   * What a NodeManager's report of its containers calls for.
   *
   * @param completed known containers it reports finished: their completion is written
   * @param unknown running containers the model lacks: adopted if the journal holds them, else killed
   * @param started known containers it reports running for the first time: their entity records it
   */
  record ReportedContainers(List<ContainerStatus> completed, List<String> unknown, List<String> started) {}

  /**
   * Reads a registration's or heartbeat's container statuses: a known container is confirmed (a
   * recovering scheduler aborts those no NM reports), one reported running is running, and a
   * finished container the model has forgotten is acknowledged to the NM at once.
   */
  ReportedContainers readReport(SchedNode node, List<ContainerStatus> statuses) {
    List<ContainerStatus> completed = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    List<String> started = new ArrayList<>();
    for (ContainerStatus s : statuses) {
      SchedContainer c = containers.get(s.containerId());
      if (c == null) {
        if (s.isComplete()) node.toRemoveFromNm.add(s.containerId());
        else unknown.add(s.containerId());
        continue;
      }
      c.confirmed = true;
      if (s.isComplete()) {
        completed.add(s);
      } else if (c.phase == SchedContainer.Phase.ALLOCATED) {
        setPhase(c, SchedContainer.Phase.RUNNING);
        started.add(c.id());
      }
    }
    return new ReportedContainers(completed, unknown, started);
  }

  /**
   * Marks the decision's containers as being preempted, each with the record of why, unless it is
   * gone or already marked.
   *
   * @return the new records, which the actor journals with the container and both applications
   */
  List<PreemptionRecord> startPreemption(PreemptionDecision d, long now, long killAt) {
    List<PreemptionRecord> started = new ArrayList<>();
    var starved = d.details().starved();
    for (PreemptionDecision.Victim v : d.details().victims()) {
      for (String id : v.containerIds()) {
        SchedContainer c = containers.get(id);
        if (c == null || preempting.containsKey(id)) continue;
        String reason = d.reason() + "; victim " + v.appId() + " in " + v.queuePath() + " has fair share "
            + v.fairShare() + ", usage " + v.usageBefore() + " -> " + v.usageAfter();
        PreemptionRecord record = new PreemptionRecord(id, v.appId(), d.starvedAppId(), starved.queuePath(),
            starved.kind().name(), c.allocation.resource(), c.allocation.am(), now, killAt, reason);
        preempting.put(id, record);
        started.add(record);
      }
    }
    return started;
  }

  /**
   * What the preemptions past their kill time call for.
   *
   * @param killed running containers now added to their node's kill list (each only once)
   * @param toRelease containers that never started, which the actor releases
   */
  record DuePreemptions(List<PreemptionRecord> killed, List<PreemptionRecord> toRelease) {}

  DuePreemptions duePreemptions(long now) {
    List<PreemptionRecord> killed = new ArrayList<>();
    List<PreemptionRecord> toRelease = new ArrayList<>();
    for (PreemptionRecord r : preempting.values()) {
      SchedContainer c = containers.get(r.containerId());
      if (r.killAt() > now || c == null) continue;
      if (c.phase == SchedContainer.Phase.RUNNING) {
        SchedNode node = nodes.get(c.allocation.nodeId());
        if (node != null && node.toKill.add(r.containerId())) killed.add(r);
      } else if (c.phase == SchedContainer.Phase.ALLOCATED) {
        toRelease.add(r);
      }
    }
    return new DuePreemptions(killed, toRelease);
  }

  SchedContainer runningAmContainer(String appId) {
    for (SchedContainer c : liveContainersOf(appId)) {
      if (c.allocation.am() && c.phase == SchedContainer.Phase.RUNNING) return c;
    }
    return null;
  }

  /**
   * Rebuilds the model from the journal: live applications with their current attempt, their live
   * containers (counted against their nodes at once, so nothing is handed out twice), and the nodes,
   * which must re-register. Containers of ended applications are cleaned up once their NMs report.
   *
   * @param fair the Fair policy's state, told where each application is; null under FIFO
   * @return AM containers the previous scheduler allocated but whose application never recorded
   *     them: they are the attempts' AMs all the same, and the scheduler records them now
   */
  List<ContainerEntity.Allocation> recover(RecoveredModel journal, long now, long amExpiryMillis, FairScheduling fair) {
    journal.nodes().forEach((id, n) -> {
      if (n.registration() == null || !n.state().isUsable()) return;
      SchedNode node = new SchedNode(n.registration(), now);
      node.awaitingResync = true;
      nodes.put(id, node);
    });
    journal.apps().forEach((id, a) -> {
      if (!a.exists() || a.state().isFinal() || a.currentAttempt() == null || a.currentAttempt().state().isFinal()) return;
      var sub = a.submission();
      SchedApp app = new SchedApp(waiting, id, sub.queue(), sub.user(), sub.priority(), a.startedTime(), sub.amResource(),
          sub.amLaunch());
      app.startAttempt(a.currentAttempt().attemptId());
      if (!a.currentAttempt().amContainerId().isEmpty()) {
        app.clearAsks();
        // The AM's liveness window starts afresh with this scheduler, as after a YARN RM restart.
        heardFromAm(app, now);
      }
      apps.put(id, app);
      appsByAttempt.put(app.attemptId, app);
      if (fair != null) fair.place("root." + sub.queue(), sub.user());
    });
    List<ContainerEntity.Allocation> unrecordedAms = new ArrayList<>();
    journal.containers().forEach((id, c) -> {
      if (c.allocation() == null) return;
      if (c.phase() == ContainerEntity.Phase.COMPLETED) {
        // Finished while no AM heard of it (say, during the outage): deliver it again; AMs ignore repeats.
        SchedApp owner = appsByAttempt.get(c.allocation().attemptId());
        if (owner != null && !c.completionDelivered() && !c.allocation().am()) {
          owner.completed.add(ContainerStatus.completed(id, c.exitStatus(), c.diagnostics(), c.allocation().resource()));
        }
        return;
      }
      ContainerEntity.Allocation a = c.allocation();
      SchedNode node = nodes.get(a.nodeId());
      if (node == null) return;
      SchedContainer sc = new SchedContainer(a, c.allocatedTime());
      sc.phase = c.phase() == ContainerEntity.Phase.RUNNING ? SchedContainer.Phase.RUNNING : SchedContainer.Phase.ALLOCATED;
      sc.confirmed = false;
      countOn(node, sc);
      SchedApp app = appsByAttempt.get(a.attemptId());
      ApplicationEntity.State owner = journal.apps().get(a.appId());
      if (app != null) app.add(sc);
      else if (a.am() && owner != null && owner.state() == AppState.FINISHED) {
        finishing.put(id, new Finishing(a.appId(), now + amExpiryMillis));
      } else node.toKill.add(id);
      if (app != null && a.am() && app.hasDemand()) {
        // The previous scheduler allocated this AM container but died before its application
        // recorded it: it is the attempt's AM all the same, not a reason to place a second one.
        app.clearAsks();
        heardFromAm(app, now);
        unrecordedAms.add(a);
      }
      if (c.preemption() != null) preempting.put(id, c.preemption());
    });
    Set<String> finishingApps = new HashSet<>();
    finishing.values().forEach(f -> finishingApps.add(f.appId()));
    for (String appId : List.copyOf(ranOn.keySet())) {
      if (apps.containsKey(appId) || finishingApps.contains(appId)) continue;
      ApplicationEntity.State a = journal.apps().get(appId);
      // An application that ended with no AM container left to exit is cleaned up now, on the nodes
      // its containers are on. One between attempts keeps its nodes for its next attempt's end.
      if (a == null || !a.exists()) ranOn.remove(appId);
      else if (a.state().isFinal()) cleanUpOnNodes(appId);
    }
    return unrecordedAms;
  }
}
