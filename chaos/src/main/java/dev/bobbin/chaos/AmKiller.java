package dev.bobbin.chaos;

import dev.bobbin.am.shell.DistributedShellAm;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.YarnApplicationState;
import dev.bobbin.protocol.client.CallException;
import dev.bobbin.protocol.client.NodeRestClient;
import dev.bobbin.protocol.client.RmRestClient;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import dev.bobbin.protocol.rest.AppInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code am-kill} fault: SIGKILL to the AM process of one running long-running application
 * (one that keeps its containers across attempts), chosen at random among those whose current
 * attempt has registered and is not its last (so the kill never fails the application), and
 * whose AM container and at least one task container the NodeManagers list running, and none of
 * whose tasks has ended. When none is, it waits up to {@link #WAIT} for one, then is skipped with
 * the reason. The AM's process is
 * found through {@code /proc} (see {@link AmProcess}). Its recovery time runs from the SIGKILL
 * until the application's next attempt registered.
 */
final class AmKiller {
  static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration REQUEST = Duration.ofSeconds(2);
  private static final long WAIT_POLL_MS = 1000;
  private static final long ATTEMPT_POLL_MS = 200;
  private static final Set<String> REGISTERED = Set.of("RUNNING", "FINISHED");

  private record Target(String appId, AppAttemptInfo attempt, NmAgent node, int tasksRunning, ProcessHandle am) {}

  private final Cluster cluster;
  private final ClusterClients clients;
  private final NodeRestClient nodeManagers;
  private final AppTracker tracker;
  private final Random random;
  private final Duration timeout;
  private final long runStartNanos;

  AmKiller(Cluster cluster, ClusterClients clients, AppTracker tracker, Random random, Duration timeout,
      long runStartNanos) {
    this.cluster = cluster;
    this.clients = clients;
    this.nodeManagers = clients.nodes(REQUEST);
    this.tracker = tracker;
    this.random = random;
    this.timeout = timeout;
    this.runStartNanos = runStartNanos;
  }

  FaultInjector.Result kill(int number) {
    long start = System.nanoTime();
    Optional<Target> target = choose();
    while (target.isEmpty() && System.nanoTime() - start < WAIT.toNanos() && Sleep.millis(WAIT_POLL_MS)) {
      target = choose();
    }
    if (target.isEmpty()) {
      return new FaultInjector.Result(number, FaultKind.AM_KILL, "-", sinceRunStart(start), FaultInjector.NOT_MEASURED,
          0, FaultInjector.NOT_MEASURED, "not injected (no long-running application had a registered AM with attempts"
              + " left and a task container running within " + Durations.format(WAIT) + "); skipped");
    }
    Target t = target.get();
    long killed = System.nanoTime();
    String waited = killed - start >= WAIT_POLL_MS * 1_000_000 ? "; waited " + since(start) + " for one" : "";
    String what = "the AM of " + t.appId() + " (attempt " + t.attempt().id() + ", " + t.attempt().containerId()
        + ", pid " + t.am().pid() + ") with " + t.tasksRunning() + " task container(s) running" + waited;
    if (!t.am().destroyForcibly()) {
      return new FaultInjector.Result(number, FaultKind.AM_KILL, t.node().name(), sinceRunStart(killed),
          FaultInjector.NOT_MEASURED, 0, FaultInjector.NOT_MEASURED,
          "not injected (SIGKILL could not be sent to " + what + "); skipped");
    }
    long restart = awaitNextAttempt(t.appId(), t.attempt().id(), killed);
    String after = restart >= 0 ? "attempt " + (t.attempt().id() + 1) + " registered " + Durations.format(restart) + " later"
        : "no later attempt registered within " + Durations.format(timeout) + ended(t.appId());
    return new FaultInjector.Result(number, FaultKind.AM_KILL, t.node().name(), sinceRunStart(killed), restart,
        timeout.toMillis(), FaultInjector.NOT_MEASURED, "SIGKILL to " + what + "; " + after);
  }

  /** A random eligible application, if one is. */
  private Optional<Target> choose() {
    List<String> services = new ArrayList<>(tracker.accepted().stream()
        .filter(a -> a.keepContainers() && !a.isFinal()).map(AppTracker.App::id).toList());
    if (services.isEmpty()) return Optional.empty();
    Collections.shuffle(services, random);
    Map<String, List<InvariantChecker.ContainerSeen>> listings = listings();
    for (String appId : services) {
      Optional<Target> t = eligible(appId, listings);
      if (t.isPresent()) return t;
    }
    return Optional.empty();
  }

  private Optional<Target> eligible(String appId, Map<String, List<InvariantChecker.ContainerSeen>> listings) {
    List<Member> serving = cluster.serving();
    if (serving.isEmpty()) return Optional.empty();
    AppInfo app;
    List<AppAttemptInfo> attempts;
    try {
      RmRestClient rm = clients.rm(serving.get(random.nextInt(serving.size())), REQUEST);
      app = rm.application(appId);
      attempts = rm.attempts(appId);
    } catch (CallException e) {
      return Optional.empty();
    }
    if (app.state() != YarnApplicationState.RUNNING || attempts.isEmpty()) return Optional.empty();
    AppAttemptInfo current = attempts.get(attempts.size() - 1);
    if (!"RUNNING".equals(current.appAttemptState()) || current.id() >= app.maxAppAttempts()) return Optional.empty();
    Optional<NmAgent> node = cluster.nodes().stream().filter(n -> n.nodeId().equals(current.nodeId())).findFirst();
    if (node.isEmpty()) return Optional.empty();
    boolean amRuns = listings.getOrDefault(node.get().nodeId(), List.of()).stream()
        .anyMatch(c -> c.id().equals(current.containerId()) && c.live());
    Set<String> amContainers = attempts.stream().map(AppAttemptInfo::containerId).collect(Collectors.toSet());
    List<InvariantChecker.ContainerSeen> taskContainers = listings.values().stream().flatMap(List::stream)
        .filter(c -> !amContainers.contains(c.id()) && appId.equals(applicationOf(c.id()))).toList();
    long tasks = taskContainers.stream().filter(InvariantChecker.ContainerSeen::live).count();
    // The shell AM, as Hadoop's distributed shell, runs a task again whose end only an earlier AM
    // heard of: a service is chosen only while none of its tasks has ended, so that the invariant
    // holds it to running each task once.
    boolean anyTaskEnded = taskContainers.stream().anyMatch(c -> !c.live());
    if (!amRuns || tasks == 0 || anyTaskEnded) return Optional.empty();
    return AmProcess.find(node.get().process().toHandle(), current.containerId(), DistributedShellAm.class.getName())
        .map(p -> new Target(appId, current, node.get(), (int) tasks, p));
  }

  /** Every NodeManager's containers now; one that does not answer lists none. */
  private Map<String, List<InvariantChecker.ContainerSeen>> listings() {
    Map<String, List<InvariantChecker.ContainerSeen>> out = new HashMap<>();
    for (NmAgent nm : cluster.nodes()) {
      try {
        out.put(nm.nodeId(), nodeManagers.containers(nm.url()).stream().map(Watchers::seen).toList());
      } catch (CallException e) {
        // its containers are not known now: none of its AMs is chosen
      }
    }
    return out;
  }

  /** Milliseconds from {@code killed} until an attempt after {@code attempt} registered; -1 if none did in time. */
  private long awaitNextAttempt(String appId, int attempt, long killed) {
    long deadline = killed + timeout.toNanos();
    for (int turn = 0; System.nanoTime() < deadline; turn++) {
      List<Member> serving = cluster.serving();
      if (!serving.isEmpty()) {
        try {
          List<AppAttemptInfo> attempts = clients.rm(serving.get(turn % serving.size()), REQUEST).attempts(appId);
          if (attempts.stream().anyMatch(a -> a.id() > attempt && REGISTERED.contains(a.appAttemptState()))) {
            return (System.nanoTime() - killed) / 1_000_000;
          }
        } catch (CallException e) {
          // ask the next member
        }
      }
      if (tracker.get(appId).map(AppTracker.App::isFinal).orElse(false) || !Sleep.millis(ATTEMPT_POLL_MS)) break;
    }
    return -1;
  }

  private String ended(String appId) {
    return tracker.get(appId).filter(AppTracker.App::isFinal)
        .map(a -> "; the application ended " + a.state() + " " + a.finalStatus()).orElse("");
  }

  private static String applicationOf(String containerId) {
    try {
      return Ids.applicationIdOfContainer(containerId);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private long sinceRunStart(long nanos) {
    return (nanos - runStartNanos) / 1_000_000;
  }

  private static String since(long nanos) {
    return Durations.format((System.nanoTime() - nanos) / 1_000_000);
  }
}
