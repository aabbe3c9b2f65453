package dev.bobbin.node.localizer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which of the node's folders, one in each local directory, takes a new PUBLIC or PRIVATE copy,
 * as YARN's LocalDirsHandlerService hands out local directories: only those the latest disk check
 * found good, in turn, so the caches spread over every disk. Thread-safe.
 */
final class CacheDirs {
  private final List<Path> all;
  private volatile List<Path> good;
  private final AtomicInteger turn = new AtomicInteger();

  CacheDirs(List<Path> nodeRoots) {
    if (nodeRoots.isEmpty()) throw new IllegalArgumentException("no local directory");
    this.all = List.copyOf(nodeRoots);
    this.good = all;
  }

  List<Path> all() {
    return all;
  }

  /** The folder for the next copy. */
  Path next() throws IOException {
    List<Path> now = good;
    if (now.isEmpty()) throw new IOException("no good local directory to place it in");
    return now.get(Math.floorMod(turn.getAndIncrement(), now.size()));
  }

  /** Which folders the latest check took out of use, and which it gave back. */
  record Change(List<Path> failed, List<Path> back) {}

  /** Uses only {@code goodRoots} from now on (entries of {@link #all()}). */
  Change useGood(List<Path> goodRoots) {
    List<Path> before = good;
    good = all.stream().filter(goodRoots::contains).toList();
    return new Change(before.stream().filter(p -> !good.contains(p)).toList(),
        good.stream().filter(p -> !before.contains(p)).toList());
  }
}
