package dev.bobbin.core.scheduler;

import dev.bobbin.config.QueuePath;
import dev.bobbin.core.container.ContainerEntity;
import dev.bobbin.core.policy.Ask;
import dev.bobbin.core.policy.AppView;
import dev.bobbin.protocol.ContainerLaunchContext;
import dev.bobbin.protocol.ContainerStatus;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.AllocateResponse;
import dev.bobbin.protocol.am.Container;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The scheduler's view of an application and its current attempt. Outstanding asks are not durable: AMs re-send them. */
final class SchedApp {
  /** Request key: an ask with the same key replaces the previous count. */
  record AskKey(int priority, String resourceName, Resource capability, long allocationRequestId, boolean am) {
    static AskKey of(Ask a) {
      return new AskKey(a.priority(), a.resourceName(), a.capability(), a.allocationRequestId(), a.am());
    }
  }

  final String appId;
  /** Where it stands among the waiting applications; the order it joined the scheduler. */
  final long order;
  private final Waiting waiting;
  /** Changes when the application moves. */
  QueuePath queue;
  final String user;
  /** Changed by its owner or an administrator while it runs. */
  int priority;
  final long submitTime;
  final Resource amResource;
  final ContainerLaunchContext amLaunch;
  /** An attempt that ends leaves its running containers to the next ({@code keep-containers-across-application-attempts}). */
  final boolean keepContainers;
  /**
   * Its client runs the AM ({@code unmanaged-AM}): no AM container is asked for, so none is placed,
   * launched or counted against AM limits. Set when the application is first followed.
   */
  boolean unmanagedAm;
  String attemptId;
  long nextContainerSeq = 1;
  boolean registered;
  float progress;
  private final Map<AskKey, Ask> asks = new LinkedHashMap<>();
  final List<Container> newlyAllocated = new ArrayList<>();
  final List<ContainerStatus> completed = new ArrayList<>();
  /**
   * The workers whose completion is queued for the current attempt's AM and not yet acknowledged,
   * with their allocations: when containers are kept, a new attempt inherits these completions and
   * is told of the containers they belong to.
   */
  final Map<String, ContainerEntity.Allocation> undelivered = new LinkedHashMap<>();
  /** Running containers earlier attempts left to the current one; each leaves when its completion is durable. */
  final Set<String> kept = new LinkedHashSet<>();
  /** Its containers, current attempt or not, until their completion is durable; change with {@link #add}. */
  final Set<String> containers = new LinkedHashSet<>();
  /** What its live containers hold, kept as they come and go: a fair pass reads it for every application. */
  private Resource used = Resource.NONE;
  private Resource amUsed = Resource.NONE;
  AllocateResponse lastResponse;
  /**
   * When the AM last registered or allocated (or its container became durable); 0 before that. Set
   * through {@link SchedulerModel#heardFromAm}, which keeps the AM expiry's order.
   */
  long lastAmContact;
  /** When the attempt was last reported timed out to its Application entity; repeated until it ends. */
  long amExpiryReportedAt;
  /** When the application's lifetime runs out (ms since the epoch); 0 without one. */
  long lifetimeDeadline;
  /** When its running out was last reported to its Application entity; repeated until it ends. */
  long lifetimeReportedAt;

  SchedApp(Waiting waiting, String appId, QueuePath queue, String user, int priority, long submitTime,
      Resource amResource, ContainerLaunchContext amLaunch) {
    this(waiting, appId, queue, user, priority, submitTime, amResource, amLaunch, false);
  }

  SchedApp(Waiting waiting, String appId, QueuePath queue, String user, int priority, long submitTime,
      Resource amResource, ContainerLaunchContext amLaunch, boolean keepContainers) {
    this.waiting = waiting;
    this.order = waiting.enrol();
    this.appId = appId;
    this.queue = queue;
    this.user = user;
    this.priority = priority;
    this.submitTime = submitTime;
    this.amResource = amResource;
    this.amLaunch = amLaunch;
    this.keepContainers = keepContainers;
  }

  /**
   * A fresh attempt starts with only its AM to place. When containers are kept, the completions the
   * ended attempt's AM had not acknowledged (sent or not) are the new attempt's to hear; otherwise
   * they are dropped with it.
   */
  void startAttempt(String newAttemptId) {
    List<ContainerStatus> inherited = new ArrayList<>();
    if (keepContainers) {
      if (lastResponse != null) inherited.addAll(lastResponse.completedContainerStatuses());
      inherited.addAll(completed);
    } else {
      undelivered.clear();
    }
    attemptId = newAttemptId;
    nextContainerSeq = 1;
    registered = false;
    progress = 0;
    asks.clear();
    newlyAllocated.clear();
    completed.clear();
    completed.addAll(inherited);
    lastResponse = null;
    lastAmContact = 0;
    amExpiryReportedAt = 0;
    if (!unmanagedAm) {
      Ask am = new Ask(0, Ask.ANY, amResource, 1, true, -1, true);
      asks.put(AskKey.of(am), am);
    }
    waiting.update(this);
  }

  void add(SchedContainer c) {
    if (containers.add(c.id()) && c.isLive()) count(c, true);
  }

  void remove(SchedContainer c) {
    kept.remove(c.id());
    if (containers.remove(c.id()) && c.isLive()) count(c, false);
  }

  /** Queues a worker's completion for the current attempt's AM. */
  void completed(ContainerEntity.Allocation a, ContainerStatus status) {
    completed.add(status);
    undelivered.put(a.containerId(), a);
  }

  /** The AM has acknowledged these completions. */
  void delivered(List<String> containerIds) {
    containerIds.forEach(undelivered::remove);
  }

  /**
   * Containers earlier attempts allocated that the current attempt takes over: those still running,
   * and those whose completion it is yet to hear, so that it knows what completed.
   */
  List<ContainerEntity.Allocation> fromPreviousAttempts(SchedulerModel model) {
    List<ContainerEntity.Allocation> out = new ArrayList<>();
    for (String id : kept) {
      SchedContainer c = model.container(id);
      if (c != null) out.add(c.allocation);
    }
    for (ContainerEntity.Allocation a : undelivered.values()) {
      if (!a.attemptId().equals(attemptId) && !kept.contains(a.containerId())) out.add(a);
    }
    return out;
  }

  /** Call before {@code c} stops being live (its completion is being written). */
  void ending(SchedContainer c) {
    if (c.isLive() && containers.contains(c.id())) count(c, false);
  }

  private void count(SchedContainer c, boolean plus) {
    Resource r = c.allocation.resource();
    used = plus ? used.plus(r) : used.minus(r);
    if (c.allocation.am()) amUsed = plus ? amUsed.plus(r) : amUsed.minus(r);
  }

  Resource used() {
    return used;
  }

  Resource amUsed() {
    return amUsed;
  }

  void replaceAsk(Ask ask) {
    if (ask.count() <= 0) asks.remove(AskKey.of(ask));
    else asks.put(AskKey.of(ask), ask);
    waiting.update(this);
  }

  void setAsks(List<Ask> remaining) {
    asks.clear();
    remaining.forEach(a -> asks.put(AskKey.of(a), a));
    waiting.update(this);
  }

  void clearAsks() {
    asks.clear();
    waiting.update(this);
  }

  /** No longer scheduled: its application ended. */
  void leave() {
    waiting.remove(this);
  }

  Ask ask(AskKey key) {
    return asks.get(key);
  }

  Collection<Ask> asks() {
    return Collections.unmodifiableCollection(asks.values());
  }

  boolean hasDemand() {
    return !asks.isEmpty();
  }

  /** What the ANY asks still want, which is the total the AM is waiting for. */
  Resource pending() {
    Resource total = Resource.NONE;
    for (Ask a : asks.values()) if (a.isAny()) total = total.plus(a.capability().times(a.count()));
    return total;
  }

  /** The biggest single container it waits for; preemption must free at least this much on one node. */
  Resource largestPendingAsk() {
    Resource max = Resource.NONE;
    for (Ask a : asks.values()) {
      Resource c = a.capability();
      if (a.count() > 0 && (c.memory() > max.memory() || c.memory() == max.memory() && c.vCores() > max.vCores())) {
        max = c;
      }
    }
    return max;
  }

  AppView view() {
    return new AppView(appId, attemptId, queue.full(), priority, submitTime, List.copyOf(asks.values()));
  }
}
