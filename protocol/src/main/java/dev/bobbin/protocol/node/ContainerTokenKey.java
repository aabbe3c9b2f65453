package dev.bobbin.protocol.node;

import dev.bobbin.protocol.CborSerializable;

/**
 * A container-token key as a NodeManager is handed it: its id (which tokens name), the secret
 * (base64url), from when the RM signs with it, and from when the NodeManager must refuse tokens
 * signed with it ({@code retiresAtMs}: 0 until a newer key has been made). The RM hands a new key
 * out in heartbeats before it signs with it, and a retired key is one whose tokens have all expired.
 */
public record ContainerTokenKey(int keyId, String key, long activatesAtMs, long retiresAtMs)
    implements CborSerializable {
  /** Whether a token signed with this key may still be accepted at {@code nowMs}. */
  public boolean acceptsAt(long nowMs) {
    return retiresAtMs == 0 || nowMs < retiresAtMs;
  }

  @Override
  public String toString() {
    // The secret stays out of logs.
    return "ContainerTokenKey[keyId=" + keyId + ", activatesAtMs=" + activatesAtMs + ", retiresAtMs=" + retiresAtMs + "]";
  }
}
