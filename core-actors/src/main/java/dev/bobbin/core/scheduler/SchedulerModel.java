package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.app.PreemptionRecord;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.node.NodeEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.Asks;
import dev.bobbin.core.policy.Assignment;
import dev.bobbin.core.policy.Preemption;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the scheduler knows: nodes, applications with their current attempt and asks, live
 * containers, and the containers being preempted, adopted or left to finish. Only the scheduler
 * actor uses it, on its own thread; it sends nothing, so each of its changes is a plain function of
 * its arguments.
 */
final class SchedulerModel {
  private final Map<String, SchedNode> nodes = new LinkedHashMap<>();
  private final Map<String, SchedApp> apps = new LinkedHashMap<>();
  private final Waiting waiting = new Waiting();
  private final Map<String, SchedApp> appsByAttempt = new HashMap<>();
  /** Live containers, by id; changed through {@link #track} and {@link #untrack} only. */
  private final Map<String, SchedContainer> containers = new HashMap<>();
  /** What the AM containers in {@link #containers} hold, for the AM limit. */
  private Resource amUsed = Resource.NONE;
  private final Preempting preempting = new Preempting(this);
  /** Unknown containers NMs reported, whose Container entities are being asked about. */
  private final Set<String> adopting = new HashSet<>();

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
  private final AppCleanup cleanup = new AppCleanup(this);

  /** The containers being taken back. */
  Preempting preempting() {
    return preempting;
  }

  /** Where applications ran, and the AM containers left to exit. */
  AppCleanup cleanup() {
    return cleanup;
  }

  // Nodes

  SchedNode node(String nodeId) {
    return nodes.get(nodeId);
  }

  Collection<SchedNode> nodes() {
    return Collections.unmodifiableCollection(nodes.values());
  }

  /** A dead node forgotten: it leaves the node list. */
  void removeNode(String nodeId) {
    nodes.remove(nodeId);
  }

  /** A node registered (again): it replaces what was known of it. */
  void putNode(SchedNode node) {
    nodes.put(node.id(), node);
  }

  // Applications and attempts

  SchedApp app(String appId) {
    return apps.get(appId);
  }

  /** The application whose current attempt this is; null once the attempt has ended. */
  SchedApp appOfAttempt(String attemptId) {
    return appsByAttempt.get(attemptId);
  }

  Collection<SchedApp> apps() {
    return Collections.unmodifiableCollection(apps.values());
  }

  /** Applications with outstanding asks, in the order they joined. */
  Collection<SchedApp> waitingApps() {
    return waiting.apps();
  }

  /** The application, followed from now on if it was not; its attempt is started separately. */
  SchedApp follow(String appId, QueuePath queue, String user, int priority, long submitTime, Resource amResource,
      ContainerLaunchContext amLaunch) {
    return follow(appId, queue, user, priority, submitTime, amResource, amLaunch, false);
  }

  /** The same, for an application whose attempts leave their running containers to the next when {@code keepContainers}. */
  SchedApp follow(String appId, QueuePath queue, String user, int priority, long submitTime, Resource amResource,
      ContainerLaunchContext amLaunch, boolean keepContainers) {
    return apps.computeIfAbsent(appId,
        id -> new SchedApp(waiting, id, queue, user, priority, submitTime, amResource, amLaunch, keepContainers));
  }

  /** A new attempt of the application is current: only its AM is asked for. */
  void startAttempt(SchedApp app, String attemptId) {
    if (app.attemptId != null) appsByAttempt.remove(app.attemptId);
    app.startAttempt(attemptId);
    appsByAttempt.put(attemptId, app);
  }

  /** The attempt has ended: calls in its name are refused, and nothing more is placed for it. */
  void endAttempt(String attemptId) {
    appsByAttempt.remove(attemptId);
  }

  /** The application has ended: it is no longer scheduled, nor its AM watched. */
  SchedApp removeApp(String appId) {
    amsByLastContact.remove(appId);
    SchedApp app = apps.remove(appId);
    if (app == null) return null;
    app.leave();
    if (app.attemptId != null) appsByAttempt.remove(app.attemptId);
    return app;
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

  // Containers

  SchedContainer container(String containerId) {
    return containers.get(containerId);
  }

  Collection<SchedContainer> containers() {
    return Collections.unmodifiableCollection(containers.values());
  }

  private void track(String id, SchedContainer c) {
    SchedContainer before = containers.put(id, c);
    if (before != null) unstarted.remove(before);
    String appId = c.allocation.appId();
    liveByApp.computeIfAbsent(appId, k -> new LinkedHashSet<>()).add(id);
    cleanup.ranOn(appId, c.allocation.nodeId());
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

  /** A running container the journal holds and the model lacked: counted on its node and for its application. */
  void adopt(SchedNode node, SchedContainer c, SchedApp app, PreemptionRecord preemption) {
    c.phase = SchedContainer.Phase.RUNNING;
    countOn(node, c);
    app.add(c);
    if (preemption != null) preempting.resume(preemption);
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
  /** Whether a node's free space takes a container: every resource unless the policy counts memory alone. */
  private BiPredicate<Resource, Resource> fits = (size, free) -> free.fits(size);

  /** @param rule whether a container of the first size fits in the second, a node's free space */
  void fitContainersBy(BiPredicate<Resource, Resource> rule) {
    fits = rule;
  }

  boolean fits(Resource size, Resource free) {
    return fits.test(size, free);
  }

  SchedContainer place(Assignment a, long epoch, long now) {
    SchedApp app = apps.get(a.appId());
    SchedNode node = nodes.get(a.nodeId());
    if (app == null || node == null || !a.attemptId().equals(app.attemptId)
        || !fits.test(a.capability(), node.view().free())) {
      return null;
    }
    String containerId = Ids.containerId(a.attemptId(), epoch, app.nextContainerSeq++);
    NodeEntity.Registration reg = node.registration;
    ContainerEntity.Allocation alloc = new ContainerEntity.Allocation(containerId, a.appId(), a.attemptId(),
        node.id(), reg.httpAddress(), a.capability(), a.ask().priority(), a.ask().allocationRequestId(), a.ask().am());
    SchedContainer c = new SchedContainer(alloc, now);
    countOn(node, c);
    app.add(c);
    List<Ask> asks = List.copyOf(app.asks());
    c.charged = Asks.charged(asks, a.ask(), reg.host(), node.id(), reg.rack());
    app.setAsks(Asks.afterPlacement(asks, a.ask(), reg.host(), node.id(), reg.rack()));
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
   * The container's completion is durable: the model forgets it, its node is told it may forget it
   * too, its attempt's AM hears of it, and an application waiting for its AM container to exit is
   * cleaned up on its nodes.
   */
  void completionDurable(SchedContainer c, ContainerStatus status) {
    untrack(c.id());
    preempting.ended(c.id());
    cleanup.ended(c.id());
    SchedNode node = nodes.get(c.allocation.nodeId());
    if (node != null) node.toRemoveFromNm.add(c.id());
    SchedApp app = apps.get(c.allocation.appId());
    if (app != null) {
      boolean kept = app.kept.contains(c.id());
      app.remove(c);
      // Only the attempt that was given the container, or took it over from an earlier one, hears it completed.
      if (!c.allocation.am() && (kept || c.allocation.attemptId().equals(app.attemptId))) {
        app.completed(c.allocation, status);
      }
    }
  }

  SchedContainer runningAmContainer(String appId) {
    for (SchedContainer c : liveContainersOf(appId)) {
      if (c.allocation.am() && c.phase == SchedContainer.Phase.RUNNING) return c;
    }
    return null;
  }

  // Containers the model lacks that a NodeManager runs

  /** @return false when the container is being looked up already */
  boolean startAdoption(String containerId) {
    return adopting.add(containerId);
  }

  void endAdoption(String containerId) {
    adopting.remove(containerId);
  }

  // Reports from NodeManagers

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

}
