package dev.bobbin.am;

import dev.bobbin.protocol.Resource;
import dev.bobbin.protocol.am.Container;
import dev.bobbin.protocol.am.ResourceRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The AM's outstanding container requests and the request keys whose totals the RM has not yet
 * been told. Immutable: every change returns a new table.
 *
 * <p>The RM decrements its own totals when it allocates, so an allocation only removes the matched
 * request locally and does not mark its keys unsent. Re-sending the older, larger total would make
 * the RM allocate again (the over-ask Hadoop's AMRMClient can fall into).
 */
final class AskTable {
  /** YARN's request key, without execution type (Bobbin has only guaranteed containers). */
  record Key(int priority, String resourceName, Resource capability, long allocationRequestId) {}

  /** The table after draining, and the asks to put into the next allocate call. */
  record Drained(AskTable table, List<ResourceRequest> asks) {}

  private static final AskTable EMPTY = new AskTable(List.of(), Set.of());

  private final List<ContainerRequest> outstanding;
  private final Set<Key> unsent;

  private AskTable(List<ContainerRequest> outstanding, Set<Key> unsent) {
    this.outstanding = outstanding;
    this.unsent = unsent;
  }

  static AskTable empty() {
    return EMPTY;
  }

  AskTable add(ContainerRequest request) {
    List<ContainerRequest> next = new ArrayList<>(outstanding);
    next.add(request);
    return new AskTable(List.copyOf(next), withKeys(unsent, keysOf(request)));
  }

  /** Withdraws one request equal to {@code request}; does nothing when there is none. */
  AskTable remove(ContainerRequest request) {
    int i = outstanding.indexOf(request);
    if (i < 0) return this;
    return new AskTable(without(i), withKeys(unsent, keysOf(request)));
  }

  /** Removes the request {@code container} fulfils, if any; the RM already counted it. */
  AskTable allocated(Container container) {
    int i = matchIndex(container);
    return i < 0 ? this : new AskTable(without(i), unsent);
  }

  /** The totals of every changed key (0 cancels), leaving nothing unsent. */
  Drained drain() {
    if (unsent.isEmpty()) return new Drained(this, List.of());
    List<ResourceRequest> asks = unsent.stream().map(this::askFor).toList();
    return new Drained(new AskTable(outstanding, Set.of()), asks);
  }

  /** After a resync the RM knows no asks: every key with outstanding containers goes out again. */
  AskTable markAllUnsent() {
    Set<Key> all = new LinkedHashSet<>();
    outstanding.forEach(r -> all.addAll(keysOf(r)));
    return new AskTable(outstanding, Collections.unmodifiableSet(all));
  }

  int outstandingCount() {
    return outstanding.size();
  }

  /** Current totals of every key that has outstanding containers. */
  List<ResourceRequest> asks() {
    Set<Key> all = new LinkedHashSet<>();
    outstanding.forEach(r -> all.addAll(keysOf(r)));
    return all.stream().map(this::askFor).toList();
  }

  private ResourceRequest askFor(Key key) {
    int count = 0;
    boolean relax = false;
    for (ContainerRequest r : outstanding) {
      if (keysOf(r).contains(key)) {
        count++;
        relax |= !ResourceRequest.ANY.equals(key.resourceName()) || r.relaxLocality();
      }
    }
    return new ResourceRequest(
        key.priority(), key.resourceName(), key.capability(), count, count == 0 || relax,
        key.allocationRequestId());
  }

  // Prefers a request naming the container's host, then one without locality, then any that fits.
  private int matchIndex(Container c) {
    String host = hostOf(c.nodeId());
    int best = -1;
    int bestScore = Integer.MIN_VALUE;
    for (int i = 0; i < outstanding.size(); i++) {
      ContainerRequest r = outstanding.get(i);
      if (r.priority() != c.priority()) continue;
      if (c.allocationRequestId() != -1 && r.allocationRequestId() != c.allocationRequestId()) continue;
      if (c.resource() != null && !c.resource().fits(r.capability())) continue;
      int score;
      if (r.nodes().contains(host) || r.nodes().contains(c.nodeId())) score = 3;
      else if (r.nodes().isEmpty() && r.racks().isEmpty()) score = 2;
      else score = r.relaxLocality() ? 1 : 0;
      if (score > bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  private static List<Key> keysOf(ContainerRequest r) {
    List<Key> keys = new ArrayList<>();
    r.nodes().forEach(n -> keys.add(key(r, n)));
    r.racks().forEach(rack -> keys.add(key(r, rack)));
    keys.add(key(r, ResourceRequest.ANY));
    return keys;
  }

  private static Key key(ContainerRequest r, String resourceName) {
    return new Key(r.priority(), resourceName, r.capability(), r.allocationRequestId());
  }

  private static Set<Key> withKeys(Set<Key> set, List<Key> keys) {
    Set<Key> next = new LinkedHashSet<>(set);
    next.addAll(keys);
    return Collections.unmodifiableSet(next);
  }

  private List<ContainerRequest> without(int index) {
    List<ContainerRequest> next = new ArrayList<>(outstanding);
    next.remove(index);
    return List.copyOf(next);
  }

  private static String hostOf(String nodeId) {
    if (nodeId == null) return "";
    int colon = nodeId.lastIndexOf(':');
    return colon < 0 ? nodeId : nodeId.substring(0, colon);
  }
}
