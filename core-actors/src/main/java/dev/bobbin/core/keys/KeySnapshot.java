package dev.bobbin.core.keys;

import dev.bobbin.protocol.Tokens;
import dev.bobbin.protocol.node.ContainerTokenKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A member's copy of the ring, with the secrets decoded once (every container token is signed, and
 * every AM call verified, with them): what signs, what verifies, and what NodeManagers are handed.
 */
final class KeySnapshot {
  final KeyRing ring;
  private final Map<KeyPurpose, KeySchedule> schedules;
  private final Map<Integer, byte[]> secrets = new HashMap<>();

  KeySnapshot(KeyRing ring, Map<KeyPurpose, KeySchedule> schedules) {
    this.ring = ring;
    this.schedules = schedules;
    for (MasterKey k : ring.keys()) secrets.put(k.id(), Tokens.decodeKey(k.secret()));
  }

  SigningKeys.SigningKey signing(KeyPurpose purpose, long now) {
    MasterKey k = ring.signing(purpose, now)
        .orElseThrow(() -> new IllegalStateException("No " + purpose + " key in the ring"));
    return new SigningKeys.SigningKey(k.id(), secrets.get(k.id()));
  }

  /** The keys of {@code purpose} that verify at {@code now}, by id. */
  Tokens.KeyLookup verifying(KeyPurpose purpose, long now) {
    return id -> {
      for (MasterKey k : ring.of(purpose)) {
        if (k.id() == id) return ring.verifies(k, now, schedules.get(purpose)) ? secrets.get(id) : null;
      }
      return null;
    };
  }

  /** The container-token keys a NodeManager needs at {@code now}: every one that still verifies. */
  List<ContainerTokenKey> forNodes(long now) {
    KeySchedule s = schedules.get(KeyPurpose.CONTAINER_TOKEN);
    List<ContainerTokenKey> out = new ArrayList<>();
    for (MasterKey k : ring.of(KeyPurpose.CONTAINER_TOKEN)) {
      if (ring.verifies(k, now, s)) out.add(new ContainerTokenKey(k.id(), k.secret(), k.activatesAtMs(), ring.retiresAt(k, s)));
    }
    return out;
  }

  /** The newest container-token key, which a NodeManager names in its heartbeats once it has it. */
  int newestContainerKeyId() {
    List<MasterKey> mine = ring.of(KeyPurpose.CONTAINER_TOKEN);
    return mine.isEmpty() ? 0 : mine.get(mine.size() - 1).id();
  }
}
