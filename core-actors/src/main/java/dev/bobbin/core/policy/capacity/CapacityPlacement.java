package dev.bobbin.core.policy.capacity;

import dev.bobbin.config.capacity.CapacityQueue;
import dev.bobbin.config.capacity.CapacitySchedulerConfig;
import dev.bobbin.config.capacity.QueueMapping;
import dev.bobbin.config.fair.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where the capacity policy puts a submission, as the Capacity Scheduler's documentation describes
 * its queue mappings. A submission that names no queue (or names {@code default}, which is what a
 * YARN client sends when none is given) goes through {@code queue-mappings} left to right, and the
 * first mapping that matches the user and names an existing leaf queue wins; with
 * {@code queue-mappings-override.enable} mappings apply to submissions that name a queue too.
 * Otherwise the named queue is taken: a full path, a path below root, or a leaf's name alone when
 * no other queue has it. Parent queues, unknown and ambiguous names are refused with Hadoop's words.
 *
 * <p>Variables: {@code %user} (a dot in a user name becomes {@code _dot_}, as Hadoop cleans it),
 * {@code %primary_group} (the first of the user's groups), {@code %secondary_group} (the first of
 * the others for which the mapping names an existing leaf), {@code %specified} (the queue the
 * submission names, if any) and {@code %default} ({@code root.default}). Unlike Hadoop 3.4's rule
 * engine, which sends a submission whose matching mapping names no existing queue to
 * {@code root.default}, the next mapping is tried, as the documentation says.
 */
final class CapacityPlacement {
  /** The queue name a YARN client submits to when it names none. */
  static final String DEFAULT_QUEUE = "default";

  private CapacityPlacement() {}

  static Placement place(CapacitySchedulerConfig config, String requestedQueue, String user, List<String> groups) {
    boolean named = requestedQueue != null && !requestedQueue.isBlank() && !requestedQueue.trim().equals(DEFAULT_QUEUE);
    String specified = named ? requestedQueue.trim() : DEFAULT_QUEUE;
    if (!named || config.queueMappingsOverride()) {
      for (QueueMapping m : config.queueMappings()) {
        if (!matches(m, user, groups)) continue;
        Optional<CapacityQueue> target = target(config, m, user, groups, named ? specified : "");
        if (target.isPresent()) {
          return new Placement.Placed(target.get().path().full(), List.of(), "queue mapping " + m);
        }
      }
    }
    Optional<CapacityQueue> q = resolve(config, specified);
    if (q.isEmpty()) {
      return new Placement.Rejected(config.isAmbiguous(specified)
          ? "Application submitted by user " + user + " to ambiguous queue: " + specified
              + " please use full queue path instead."
          : "Application submitted by user " + user + " to unknown queue: " + specified);
    }
    if (!q.get().isLeaf()) {
      return new Placement.Rejected("Application submitted by user " + user + " to non-leaf queue: "
          + q.get().path() + "; applications go to leaf queues");
    }
    return new Placement.Placed(q.get().path().full(), List.of(), named ? "the queue named" : "the default queue");
  }

  private static boolean matches(QueueMapping m, String user, List<String> groups) {
    return switch (m.type()) {
      case USER -> m.matchesAll() || m.source().equals(user);
      case GROUP -> groups.contains(m.source());
      case APPLICATION -> false;
    };
  }

  /** The existing leaf the mapping names for this submission, if any. */
  private static Optional<CapacityQueue> target(CapacitySchedulerConfig config, QueueMapping m, String user,
      List<String> groups, String specified) {
    List<String> secondary = groups.size() > 1 ? groups.subList(1, groups.size()) : List.of();
    List<String> candidates = m.queueParts().contains("%secondary_group") ? secondary : List.of("");
    for (String secondaryGroup : candidates) {
      List<String> parts = new ArrayList<>();
      for (String part : m.queueParts()) {
        parts.add(switch (part) {
          case "%user" -> clean(user);
          case "%primary_group" -> groups.isEmpty() ? "" : clean(groups.get(0));
          case "%secondary_group" -> clean(secondaryGroup);
          case "%specified" -> specified;
          case "%default" -> "root." + DEFAULT_QUEUE;
          default -> part;
        });
      }
      Optional<CapacityQueue> q = resolve(config, String.join(".", parts));
      if (q.isPresent() && q.get().isLeaf()) return q;
    }
    return Optional.empty();
  }

  /**
   * A queue by full path, path below root or unique name; a dotted path may also start with a
   * unique name ({@code users.alice} for {@code root.org.users.alice}), as Hadoop normalizes a
   * mapping's parent.
   */
  static Optional<CapacityQueue> resolve(CapacitySchedulerConfig config, String path) {
    if (path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) return Optional.empty();
    Optional<CapacityQueue> q = config.queue(path);
    int dot = path.indexOf('.');
    if (q.isPresent() || dot < 0) return q;
    return config.queue(path.substring(0, dot))
        .flatMap(first -> config.queue(first.path().full() + path.substring(dot)));
  }

  /** Hadoop's {@code cleanName}: a dot would split the queue path. */
  private static String clean(String name) {
    return name.replace(".", "_dot_");
  }
}
