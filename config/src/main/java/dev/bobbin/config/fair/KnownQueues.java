package dev.bobbin.config.fair;

import java.util.HashSet;
import java.util.Set;

/**
 * The queues that exist when placing an application. Rules with create=false match only queues
 * declared in the configuration, so queues created at run time are also listed in {@code dynamic}.
 *
 * @param leaves full paths of leaf queues
 * @param parents full paths of parent queues, root included
 * @param dynamic the paths among the two above that placement created rather than configuration
 */
public record KnownQueues(Set<String> leaves, Set<String> parents, Set<String> dynamic) {

  public KnownQueues {
    leaves = Set.copyOf(leaves);
    parents = Set.copyOf(parents);
    dynamic = Set.copyOf(dynamic);
  }

  /** The queues a configuration declares. */
  public static KnownQueues of(FairSchedulerConfig config) {
    Set<String> leaves = new HashSet<>();
    Set<String> parents = new HashSet<>();
    config.queues().values().forEach(q -> (q.isLeaf() ? leaves : parents).add(q.path()));
    return new KnownQueues(leaves, parents, Set.of());
  }

  public boolean exists(String path) {
    return leaves.contains(path) || parents.contains(path);
  }

  public boolean isLeaf(String path) {
    return leaves.contains(path);
  }

  public boolean isParent(String path) {
    return parents.contains(path);
  }

  /** Declared in the configuration, not created at run time. */
  public boolean isConfigured(String path) {
    return exists(path) && !dynamic.contains(path);
  }

  /** These queues plus the ones {@code placed} asked to create. */
  public KnownQueues with(Placement.Placed placed) {
    Set<String> l = new HashSet<>(leaves);
    Set<String> p = new HashSet<>(parents);
    Set<String> d = new HashSet<>(dynamic);
    for (String q : placed.queuesToCreate()) {
      (q.equals(placed.queue()) ? l : p).add(q);
      d.add(q);
    }
    return new KnownQueues(l, p, d);
  }
}
