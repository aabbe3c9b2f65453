package dev.bobbin.node.localizer;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * Keeps the number of entries in each directory of a cache below a limit, as YARN's
 * LocalCacheDirectoryManager does ({@code yarn.nodemanager.local-cache.max-files-per-directory}):
 * copies go into the cache itself until it holds its share, then into sub-directories named by
 * one base-36 character per level ({@code 0}..{@code z}, then {@code 0/0}, {@code 0/1}, ...), a new
 * one only when every known one is full, and a directory that loses a copy takes new ones again.
 * Each of the 36 possible sub-directories counts against its parent's limit, so the limit must
 * leave room for copies. Thread-safe.
 */
final class CacheSubdirs {
  static final int PER_LEVEL = 36;

  private final int copiesPerDir;
  private final Map<Path, Tree> trees = new HashMap<>();

  /** @param maxEntriesPerDir at most this many entries in any directory of a cache; above {@value #PER_LEVEL} */
  CacheSubdirs(int maxEntriesPerDir) {
    if (maxEntriesPerDir <= PER_LEVEL) {
      throw new IllegalArgumentException("at most " + maxEntriesPerDir + " entries per directory leaves no room"
          + " beside the " + PER_LEVEL + " sub-directories");
    }
    this.copiesPerDir = maxEntriesPerDir - PER_LEVEL;
  }

  /** Where under {@code cache} the next copy goes ("" for the cache itself), counted from now. */
  synchronized String take(Path cache) {
    return tree(cache).take();
  }

  /** A copy is in {@code cache}/{@code relative}: one an earlier run made, counted again. */
  synchronized void counted(Path cache, String relative) {
    tree(cache).add(relative);
  }

  /** A copy in {@code cache}/{@code relative} was deleted or given up. */
  synchronized void released(Path cache, String relative) {
    Tree t = trees.get(cache);
    if (t != null) t.remove(relative);
  }

  /**
   * The cache a copy's directory is in: its parent, above any sub-directories of one character.
   * Cache folders ({@code filecache}) are never named with one character.
   */
  static Path cacheOf(Path copy) {
    Path dir = copy.getParent();
    while (dir != null && isSubdir(dir.getFileName().toString())) dir = dir.getParent();
    return dir;
  }

  static boolean isSubdir(String name) {
    return name.length() == 1 && Character.digit(name.charAt(0), PER_LEVEL) >= 0
        && name.equals(name.toLowerCase(java.util.Locale.ROOT));
  }

  /** The sub-directory number {@code n}: 0 is the cache itself. */
  static String relativePath(int n) {
    if (n == 0) return "";
    String digits = Integer.toString(n - 1, PER_LEVEL);
    StringBuilder out = new StringBuilder();
    // Below the first level, numbering starts again at 0 so that 0/0 follows z.
    out.append(digits.length() == 1 ? digits.charAt(0)
        : Character.forDigit(Character.digit(digits.charAt(0), PER_LEVEL) - 1, PER_LEVEL));
    for (int i = 1; i < digits.length(); i++) out.append('/').append(digits.charAt(i));
    return out.toString();
  }

  static int number(String relative) {
    if (relative.isEmpty()) return 0;
    String digits = relative.replace("/", "");
    if (digits.length() > 1) {
      digits = Character.forDigit(Character.digit(digits.charAt(0), PER_LEVEL) + 1, PER_LEVEL) + digits.substring(1);
    }
    return Integer.parseInt(digits, PER_LEVEL) + 1;
  }

  private Tree tree(Path cache) {
    return trees.computeIfAbsent(cache, c -> new Tree());
  }

  /** The counts of one cache's directories, and those with room, in the order they came to have it. */
  private final class Tree {
    private final Map<String, Integer> counts = new HashMap<>(Map.of("", 0));
    private final Queue<String> withRoom = new ArrayDeque<>(java.util.List.of(""));
    private int highest;

    String take() {
      if (withRoom.isEmpty()) {
        String next = relativePath(++highest);
        counts.put(next, 0);
        withRoom.add(next);
      }
      String dir = withRoom.peek();
      int n = counts.merge(dir, 1, Integer::sum);
      if (n >= copiesPerDir) withRoom.remove();
      return dir;
    }

    void add(String relative) {
      if (!counts.containsKey(relative)) {
        highest = Math.max(highest, number(relative));
        counts.put(relative, 0);
        withRoom.add(relative);
      }
      int n = counts.merge(relative, 1, Integer::sum);
      if (n >= copiesPerDir) withRoom.remove(relative);
    }

    void remove(String relative) {
      Integer before = counts.get(relative);
      if (before == null || before == 0) return;
      counts.put(relative, before - 1);
      if (before >= copiesPerDir) withRoom.add(relative);
    }
  }
}
