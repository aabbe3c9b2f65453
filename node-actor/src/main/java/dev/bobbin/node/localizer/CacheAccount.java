package dev.bobbin.node.localizer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the PUBLIC and PRIVATE caches hold: each localized resource's size, how many containers use
 * it now, and when one last did. Above the target size the least recently used resources that no
 * container uses are chosen for deletion, as YARN's cache cleanup does. Not thread-safe: its owner
 * serialises calls.
 */
final class CacheAccount<K> {
  private record Entry(long bytes, int users, long lastUsed) {}

  private final Map<K, Entry> entries = new HashMap<>();

  void added(K key, long bytes, long now) {
    entries.put(key, new Entry(bytes, 0, now));
  }

  boolean holds(K key) {
    return entries.containsKey(key);
  }

  void retain(K key, long now) {
    entries.computeIfPresent(key, (k, e) -> new Entry(e.bytes, e.users + 1, now));
  }

  void release(K key, long now) {
    entries.computeIfPresent(key, (k, e) -> new Entry(e.bytes, Math.max(0, e.users - 1), now));
  }

  void forget(K key) {
    entries.remove(key);
  }

  long totalBytes() {
    return entries.values().stream().mapToLong(Entry::bytes).sum();
  }

  /** Removes and returns what to delete to come down to {@code targetBytes}, oldest use first, none in use. */
  List<K> evictAbove(long targetBytes) {
    long total = totalBytes();
    List<K> out = new ArrayList<>();
    var idle = entries.entrySet().stream().filter(e -> e.getValue().users == 0)
        .sorted(Comparator.comparingLong(e -> e.getValue().lastUsed)).toList();
    for (var e : idle) {
      if (total <= targetBytes) break;
      total -= e.getValue().bytes;
      out.add(e.getKey());
    }
    out.forEach(entries::remove);
    return out;
  }
}
