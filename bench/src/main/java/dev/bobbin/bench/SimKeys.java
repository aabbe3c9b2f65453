package dev.bobbin.bench;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container-token keys the simulated NodeManagers were handed, at registration and in
 * heartbeats when the RM rolled them, with which {@link NmStub} checks container tokens as a real
 * NodeManager does.
 */
final class SimKeys implements Tokens.KeyLookup {
  private final Map<Integer, byte[]> keys = new ConcurrentHashMap<>();
  private volatile int newest;

  void handedOut(List<ContainerTokenKey> handed) {
    for (ContainerTokenKey k : handed) {
      keys.putIfAbsent(k.keyId(), Tokens.decodeKey(k.key()));
      if (k.keyId() > newest) newest = k.keyId();
    }
  }

  /** The newest key heard of, which the nodes name in their heartbeats. */
  int newest() {
    return newest;
  }

  @Override
  public byte[] key(int keyId) {
    return keys.get(keyId);
  }
}
