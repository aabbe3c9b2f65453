package dev.bobbin.chaos;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.rest.AppAttemptInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * Judges the invariants from outside, from what the NodeManagers and the RM report when polled
 * (so a breach shorter than a polling interval can go unseen). Plain logic, no I/O; thread-safe.
 *
 * <ul>
 *   <li>Double launch: a container id listed by two NodeManagers, listed twice, or running again on
 *       its node after it had ended.
 *   <li>Over-commit: on a node, the summed resources of its live containers (every state but the
 *       final ones) above the capacity it was given; likewise the RM's used resources on a node.
 *   <li>Lost container: a container a NodeManager listed that then ended with
 *       {@link #LOSS_EXIT_STATUSES} or vanished from the listing without ending, while its
 *       application had not finished. Judged at the end with the applications' finish times, so
 *       a container the RM cleans up after its application ended is not counted.
 *   <li>Kept containers, for the applications that keep their containers across attempts: no task
 *       runs twice, and a task container that ran when an attempt's AM died ends by itself; see
 *       {@link #kept}.
 * </ul>
 */
final class InvariantChecker {
  /**
   * ABORTED (-100): the RM released the container because it lost track of it (YARN's exit status
   * for a container the RM does not know after a resync); KILLED_BY_RESOURCEMANAGER (-106): the
   * RM ordered the kill. Neither happens to a healthy application's container before the
   * application ends, so either one means the RM dropped running work.
   */
  static final Set<Integer> LOSS_EXIT_STATUSES = Set.of(ExitStatus.ABORTED, ExitStatus.KILLED_BY_RESOURCEMANAGER);
  /** The exit statuses after which the distributed-shell AM runs a task again, in a new container. */
  static final Set<Integer> RUN_AGAIN_EXIT_STATUSES = Set.of(ExitStatus.ABORTED, ExitStatus.PREEMPTED);
  private static final Set<String> FINAL_STATES = Set.of("EXITED_WITH_SUCCESS", "EXITED_WITH_FAILURE", "DONE", "COMPLETE");

  /**
   * A long-running service as the RM lists it after the run: how many tasks it runs, the AM
   * container of each of its attempts, and when each attempt whose AM died ended (every attempt
   * but the last).
   */
  record Service(String appId, int tasks, Set<String> amContainers, List<Long> amDeathsMs) {
    /** From the RM's attempts, oldest first; an ended attempt with no finish time ended when the next one started. */
    static Service of(String appId, int tasks, List<AppAttemptInfo> attempts) {
      Set<String> ams = new HashSet<>();
      List<Long> deaths = new ArrayList<>();
      for (int i = 0; i < attempts.size(); i++) {
        AppAttemptInfo a = attempts.get(i);
        if (a.containerId() != null && !a.containerId().isEmpty()) ams.add(a.containerId());
        if (i + 1 < attempts.size()) deaths.add(a.finishedTime() > 0 ? a.finishedTime() : attempts.get(i + 1).startTime());
      }
      return new Service(appId, tasks, Set.copyOf(ams), List.copyOf(deaths));
    }
  }

  /**
   * The kept-containers invariant's violations, and what it judged: the services, their AM deaths,
   * the task containers that ran when one of their AMs died, and how many of those were lost
   * (each of them a lost-container violation already, not counted again here).
   */
  record Kept(List<Violation> violations, int services, int amDeaths, int keptContainers, int keptLost) {}

  /** One container as {@code GET /ws/v1/node/containers} lists it. */
  record ContainerSeen(String id, String state, long memoryMb, int vCores, int exitCode) {
    boolean live() {
      return !FINAL_STATES.contains(state);
    }
  }

  private record Suspect(String containerId, String node, long atMs, String how) {}

  /** How a container ended as the listings showed it: an exit status, or gone from its NodeManager's listing. */
  private record Ending(long atMs, int exitCode, boolean vanished) {}

  private final Map<String, String> nodeOf = new HashMap<>();
  private final Map<String, Long> firstSeen = new HashMap<>();
  private final Map<String, List<String>> byApp = new HashMap<>();
  private final Map<String, Ending> endings = new HashMap<>();
  private final Map<String, Set<String>> liveByNode = new HashMap<>();
  private final Set<String> ended = new HashSet<>();
  private final Set<String> doubled = new HashSet<>();
  private final Set<String> overNow = new HashSet<>();
  private final List<Violation> found = new ArrayList<>();
  private final List<Suspect> suspects = new ArrayList<>();
  private long overCommitSamples;

  /** One listing of one NodeManager, taken at {@code atMs}. */
  synchronized void observeNode(String node, long atMs, Resource capacity, List<ContainerSeen> listed) {
    Set<String> before = liveByNode.computeIfAbsent(node, n -> new LinkedHashSet<>());
    Set<String> now = new LinkedHashSet<>();
    Set<String> inListing = new HashSet<>();
    Resource used = Resource.NONE;
    for (ContainerSeen c : listed) {
      if (!inListing.add(c.id())) {
        doubleLaunch(c.id(), atMs, "listed twice by " + node);
        continue;
      }
      if (c.live()) {
        used = used.plus(new Resource(c.memoryMb(), c.vCores()));
        now.add(c.id());
      }
      String home = nodeOf.putIfAbsent(c.id(), node);
      if (home == null) {
        firstSeen.put(c.id(), atMs);
        byApp.computeIfAbsent(applicationOf(c.id()), a -> new ArrayList<>()).add(c.id());
      }
      if (home != null && !home.equals(node)) {
        doubleLaunch(c.id(), atMs, "launched on " + home + " and on " + node);
      } else if (c.live() && ended.contains(c.id())) {
        doubleLaunch(c.id(), atMs, "running again on " + node + " after it had ended");
      } else if (!c.live() && ended.add(c.id())) {
        endings.put(c.id(), new Ending(atMs, c.exitCode(), false));
        if (LOSS_EXIT_STATUSES.contains(c.exitCode())) {
          suspects.add(new Suspect(c.id(), node, atMs, "ended with exit status " + c.exitCode()));
        }
      }
    }
    for (String id : before) {
      if (!inListing.contains(id) && ended.add(id)) {
        endings.put(id, new Ending(atMs, ExitStatus.INVALID, true));
        suspects.add(new Suspect(id, node, atMs, "vanished from its NodeManager while running"));
      }
    }
    liveByNode.put(node, now);
    capacity("NodeManager " + node, "nm " + node, atMs, used, capacity, now);
  }

  /** The RM's account of one node ({@code GET /ws/v1/cluster/nodes}): used within capacity. */
  synchronized void observeRmNode(String node, long atMs, Resource used, Resource capacity) {
    capacity("the RM's view of node " + node, "rm " + node, atMs, used, capacity, Set.of());
  }

  /**
   * Everything that broke so far. {@code appFinishedAt} gives the RM's finish time of an
   * application that ended, empty for one that has not.
   */
  synchronized List<Violation> violations(Function<String, OptionalLong> appFinishedAt) {
    List<Violation> out = new ArrayList<>(found);
    for (Suspect s : suspects) {
      String app = applicationOf(s.containerId());
      OptionalLong finished = appFinishedAt.apply(app);
      // Ended by the RM after its application ended: clean-up, not loss.
      if (!runningAt(finished, s.atMs())) continue;
      out.add(new Violation(Violation.Kind.LOST_CONTAINER, s.atMs(), s.containerId() + " on " + s.node() + " "
          + s.how() + " while " + app + (finished.isPresent() ? " was still running" : " had not finished")));
    }
    out.sort(Comparator.comparingLong(Violation::atMs));
    return out;
  }

  /**
   * The kept-containers invariant, judged after the run with every long-running service's attempts.
   * A service's task containers are its containers the NodeManagers listed, its AM containers left
   * out. Broken when:
   *
   * <ul>
   *   <li>a task ran twice: it had more task containers than tasks, plus one for each task
   *       container that ended ABORTED or PREEMPTED (after which the AM runs the task again);
   *   <li>a task container that ran when one of its AMs died (listed before the attempt ended and
   *       not yet seen ended) was then stopped by an AM (KILLED_BY_APPMASTER) while the service ran:
   *       a later attempt stopped a task it should have taken over. One the RM ended (ABORTED,
   *       KILLED_BY_RESOURCEMANAGER, which a release by the AM also gives) or that vanished from its
   *       NodeManager is a lost container already (see {@link #violations}), counted in
   *       {@link Kept#keptLost()} and not again as a violation here.
   * </ul>
   */
  synchronized Kept kept(List<Service> services, Function<String, OptionalLong> appFinishedAt) {
    List<Violation> out = new ArrayList<>();
    int deaths = 0;
    int keptContainers = 0;
    int keptLost = 0;
    for (Service s : services) {
      deaths += s.amDeathsMs().size();
      OptionalLong finished = appFinishedAt.apply(s.appId());
      List<String> tasks = byApp.getOrDefault(s.appId(), List.of()).stream()
          .filter(id -> !s.amContainers().contains(id)).toList();
      int runAgain = (int) tasks.stream().map(endings::get)
          .filter(e -> e != null && !e.vanished() && RUN_AGAIN_EXIT_STATUSES.contains(e.exitCode())).count();
      if (tasks.size() > s.tasks() + runAgain) {
        out.add(new Violation(Violation.Kind.KEPT_CONTAINER, firstSeen.get(tasks.get(s.tasks() + runAgain)),
            s.appId() + " runs " + s.tasks() + " tasks" + (runAgain == 0 ? "" : ", " + runAgain + " of them again")
                + ", in " + tasks.size() + " task containers: " + fates(tasks) + "; a task ran twice"));
      }
      for (String id : tasks) {
        OptionalLong death = s.amDeathsMs().stream().mapToLong(Long::longValue).filter(d -> ranAt(id, d)).min();
        if (death.isEmpty()) continue;
        keptContainers++;
        Ending e = endings.get(id);
        if (e == null || !runningAt(finished, e.atMs())) continue;
        if (e.vanished() || LOSS_EXIT_STATUSES.contains(e.exitCode())) {
          keptLost++;
        } else if (e.exitCode() == ExitStatus.KILLED_BY_APPMASTER) {
          out.add(new Violation(Violation.Kind.KEPT_CONTAINER, e.atMs(), id + " on " + nodeOf.get(id)
              + ", running when an AM of " + s.appId() + " died at " + Instant.ofEpochMilli(death.getAsLong())
              + ", was stopped by an AM (exit status " + e.exitCode() + ") while the application still ran"));
        }
      }
    }
    out.sort(Comparator.comparingLong(Violation::atMs));
    return new Kept(out, services.size(), deaths, keptContainers, keptLost);
  }

  /** Listed at or before {@code atMs}, and not seen ended by then. */
  private boolean ranAt(String id, long atMs) {
    Ending e = endings.get(id);
    return firstSeen.get(id) <= atMs && (e == null || e.atMs() > atMs);
  }

  /** Each container with how it ended: "c1 exit 0, c2 running". */
  private String fates(List<String> ids) {
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      Ending e = endings.get(id);
      out.add(id + " " + (e == null ? "running" : e.vanished() ? "vanished" : "exit " + e.exitCode()));
    }
    return String.join(", ", out);
  }

  /** Whether an application that ended at {@code finished} (if it did) was still running at {@code atMs}. */
  private static boolean runningAt(OptionalLong finished, long atMs) {
    return finished.isEmpty() || finished.getAsLong() > atMs;
  }

  synchronized int containersSeen() {
    return nodeOf.size();
  }

  /** Polls that found a node over its capacity (a breach lasting several polls counts once as a violation). */
  synchronized long overCommitSamples() {
    return overCommitSamples;
  }

  private void capacity(String what, String key, long atMs, Resource used, Resource capacity, Set<String> ids) {
    if (capacity.fits(used)) {
      overNow.remove(key);
      return;
    }
    overCommitSamples++;
    if (overNow.add(key)) {
      found.add(new Violation(Violation.Kind.OVER_COMMIT, atMs, what + " holds " + used + ", above its capacity "
          + capacity + (ids.isEmpty() ? "" : ": " + String.join(", ", ids))));
    }
  }

  private void doubleLaunch(String id, long atMs, String how) {
    if (doubled.add(id)) found.add(new Violation(Violation.Kind.DOUBLE_LAUNCH, atMs, id + " " + how));
  }

  private static String applicationOf(String containerId) {
    try {
      return Ids.applicationIdOfContainer(containerId);
    } catch (IllegalArgumentException e) {
      return "an unknown application";
    }
  }
}
