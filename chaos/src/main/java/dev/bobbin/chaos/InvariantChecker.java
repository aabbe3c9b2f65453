package dev.bobbin.chaos;

import dev.bobbin.protocol.ExitStatus;
import dev.bobbin.protocol.Ids;
import dev.bobbin.protocol.Resource;
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
  private static final Set<String> FINAL_STATES = Set.of("EXITED_WITH_SUCCESS", "EXITED_WITH_FAILURE", "DONE", "COMPLETE");

  /** One container as {@code GET /ws/v1/node/containers} lists it. */
  record ContainerSeen(String id, String state, long memoryMb, int vCores, int exitCode) {
    boolean live() {
      return !FINAL_STATES.contains(state);
    }
  }

  private record Suspect(String containerId, String node, long atMs, String how) {}

  private final Map<String, String> nodeOf = new HashMap<>();
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
      if (home != null && !home.equals(node)) {
        doubleLaunch(c.id(), atMs, "launched on " + home + " and on " + node);
      } else if (c.live() && ended.contains(c.id())) {
        doubleLaunch(c.id(), atMs, "running again on " + node + " after it had ended");
      } else if (!c.live() && ended.add(c.id()) && LOSS_EXIT_STATUSES.contains(c.exitCode())) {
        suspects.add(new Suspect(c.id(), node, atMs, "ended with exit status " + c.exitCode()));
      }
    }
    for (String id : before) {
      if (!inListing.contains(id) && ended.add(id)) {
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
      if (finished.isPresent() && finished.getAsLong() <= s.atMs()) continue;
      out.add(new Violation(Violation.Kind.LOST_CONTAINER, s.atMs(), s.containerId() + " on " + s.node() + " "
          + s.how() + " while " + app + (finished.isPresent() ? " was still running" : " had not finished")));
    }
    out.sort(Comparator.comparingLong(Violation::atMs));
    return out;
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
