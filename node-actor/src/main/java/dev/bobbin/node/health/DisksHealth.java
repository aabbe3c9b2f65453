package dev.bobbin.node.health;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The outcome of checking every local and log directory, as YARN's LocalDirsHandlerService keeps
 * it: the directories that passed, which new containers use, and the node's disk verdict. The node
 * is unhealthy when the good local directories, or the good log directories, are fewer than {@code
 * minHealthyDisks} of those configured; the report names every failed directory and why, even while
 * enough others are good.
 */
public record DisksHealth(List<Path> goodLocalDirs, List<Path> goodLogDirs, NodeHealth health) {
  /** One directory's result: {@code problem} is empty when it passed. */
  public record DirCheck(Path dir, String problem) {
    boolean good() {
      return problem.isEmpty();
    }
  }

  public DisksHealth {
    goodLocalDirs = List.copyOf(goodLocalDirs);
    goodLogDirs = List.copyOf(goodLogDirs);
  }

  public static DisksHealth of(List<DirCheck> local, List<DirCheck> log, double minHealthyDisks, long now) {
    List<String> report = new ArrayList<>();
    describeFailures("local-dirs", local, report);
    describeFailures("log-dirs", log, report);
    boolean healthy = enoughGood(local, minHealthyDisks) && enoughGood(log, minHealthyDisks);
    return new DisksHealth(good(local), good(log),
        new NodeHealth(healthy, String.join(NodeHealth.SEPARATOR + " ", report), now));
  }

  /** With disk checks switched off: every directory is taken as good. */
  public static DisksHealth unchecked(List<Path> local, List<Path> log, long now) {
    return new DisksHealth(local, log, NodeHealth.healthy(now));
  }

  /** Whether new containers can start here: the disks are healthy and a directory of each kind is good. */
  public boolean usable() {
    return health.healthy() && !goodLocalDirs.isEmpty() && !goodLogDirs.isEmpty();
  }

  private static boolean enoughGood(List<DirCheck> dirs, double minHealthyDisks) {
    if (dirs.isEmpty()) return true;
    long good = dirs.stream().filter(DirCheck::good).count();
    return good / (double) dirs.size() >= minHealthyDisks;
  }

  private static List<Path> good(List<DirCheck> dirs) {
    return dirs.stream().filter(DirCheck::good).map(DirCheck::dir).toList();
  }

  private static void describeFailures(String kind, List<DirCheck> dirs, List<String> report) {
    List<DirCheck> failed = dirs.stream().filter(d -> !d.good()).toList();
    if (failed.isEmpty()) return;
    report.add(failed.size() + "/" + dirs.size() + " " + kind + " failed: "
        + failed.stream().map(d -> d.dir() + " (" + d.problem() + ")").collect(Collectors.joining(", ")));
  }
}
