package dev.bobbin.node;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The container-token keys a node holds, as the RM last handed them out (at registration, and in a
 * heartbeat whenever it has a newer one). A container may be started only with a token whose key
 * the RM still accepts; a running container may be stopped or queried with its token for as long
 * as it runs, however long ago its key retired, so the node remembers the last keys it held.
 */
final class NodeTokenKeys {
  /** How many keys the node remembers for containers that outlive their token's key. */
  static final int REMEMBERED = 16;
  static final NodeTokenKeys NONE = new NodeTokenKeys(List.of(), Map.of());

  private final List<ContainerTokenKey> current;
  /** Every key remembered, by id, oldest first; the current ones among them. */
  private final Map<Integer, byte[]> remembered;

  private NodeTokenKeys(List<ContainerTokenKey> current, Map<Integer, byte[]> remembered) {
    this.current = current;
    this.remembered = remembered;
  }

  /**
   * The keys after the RM handed out {@code keys}: those become the current ones. Keys whose secret
   * does not decode are left out.
   */
  NodeTokenKeys handedOut(List<ContainerTokenKey> keys) {
    List<ContainerTokenKey> usable = new ArrayList<>();
    Map<Integer, byte[]> all = new LinkedHashMap<>(remembered);
    for (ContainerTokenKey k : keys) {
      byte[] secret = decode(k.key());
      if (secret == null) continue;
      usable.add(k);
      all.remove(k.keyId());
      all.put(k.keyId(), secret);
    }
    while (all.size() > REMEMBERED) all.remove(all.keySet().iterator().next());
    // Kept in order, oldest first: the oldest are forgotten first.
    return new NodeTokenKeys(List.copyOf(usable), Collections.unmodifiableMap(all));
  }

  boolean isEmpty() {
    return current.isEmpty();
  }

  /** The newest key the node holds (0 when none), which it names in its heartbeats. */
  int newestKeyId() {
    return current.stream().mapToInt(ContainerTokenKey::keyId).max().orElse(0);
  }

  /** The keys that start containers at {@code nowMs}: the current ones not yet retired. */
  Tokens.KeyLookup forStart(long nowMs) {
    return id -> {
      for (ContainerTokenKey k : current) {
        if (k.keyId() == id) return k.acceptsAt(nowMs) ? remembered.get(id) : null;
      }
      return null;
    };
  }

  /** The keys that manage containers already running: every one remembered. */
  Tokens.KeyLookup forManagement() {
    return remembered::get;
  }

  List<Integer> currentIds() {
    return current.stream().map(ContainerTokenKey::keyId).toList();
  }

  private static byte[] decode(String encoded) {
    try {
      byte[] key = Tokens.decodeKey(encoded);
      return key.length == 0 ? null : key;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
